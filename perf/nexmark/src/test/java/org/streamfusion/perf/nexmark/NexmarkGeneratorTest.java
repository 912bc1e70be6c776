package org.streamfusion.perf.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class NexmarkGeneratorTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static List<String> json(long seed, int n) {
        NexmarkGenerator g = new NexmarkGenerator(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(NexmarkJson.toJson(g.next()));
        }
        return out;
    }

    @Test
    void sameSeedSameEventsOtherSeedOtherEvents() {
        assertEquals(json(7, 2000), json(7, 2000));
        assertNotEquals(json(7, 200), json(8, 200));
    }

    @Test
    void typesIdsAndTimesFollowTheEventNumber() {
        NexmarkGenerator g = new NexmarkGenerator(1, 1_000_000L, 10_000L); // 100 us per event
        int[] counts = new int[3];
        for (int n = 0; n < 5000; n++) {
            NexmarkGenerator.Event e = g.next();
            assertEquals(n, e.number());
            counts[e.type().ordinal()]++;
            assertEquals(NexmarkGenerator.typeOf(n), e.type());
            assertEquals(1_000_000L + n / 10, e.dateTime());
            switch (e.type()) {
                case PERSON -> assertEquals(1000 + n / 50, e.person().id());
                case AUCTION ->
                    assertEquals(1000 + 3 * (n / 50) + n % 50 - 1, e.auction().id());
                case BID -> {
                    long lastAuction = 1000 + 3 * (n / 50) + 2;
                    assertTrue(e.bid().auction() <= lastAuction + 10, e.bid().toString());
                    assertTrue(e.bid().bidder() >= 2000, "upstream adds FIRST_PERSON_ID twice: " + e.bid());
                    assertTrue(
                            e.bid().price() >= 100 && e.bid().price() <= 100_000_000L,
                            e.bid().toString());
                }
            }
        }
        assertEquals(100, counts[0]);
        assertEquals(300, counts[1]);
        assertEquals(4600, counts[2]);
        assertEquals(100, NexmarkGenerator.count(5000, NexmarkGenerator.Type.PERSON));
        assertEquals(300, NexmarkGenerator.count(5000, NexmarkGenerator.Type.AUCTION));
        assertEquals(4600, NexmarkGenerator.count(5000, NexmarkGenerator.Type.BID));
        // 53 events: 2 persons (0, 50), 3 + 2 auctions (1-3, 51-52), 46 bids
        assertEquals(2, NexmarkGenerator.count(53, NexmarkGenerator.Type.PERSON));
        assertEquals(5, NexmarkGenerator.count(53, NexmarkGenerator.Type.AUCTION));
        assertEquals(46, NexmarkGenerator.count(53, NexmarkGenerator.Type.BID));
    }

    @Test
    void fieldDistributionsAreUpstreams() {
        NexmarkGenerator g = new NexmarkGenerator(3);
        int bids = 0;
        int hotChannel = 0;
        int hotAuction = 0;
        long bidBytes = 0;
        Set<String> channels = new HashSet<>();
        for (int n = 0; n < 50_000; n++) {
            NexmarkGenerator.Event e = g.next();
            if (e.bid() != null) {
                bids++;
                NexmarkGenerator.Bid b = e.bid();
                channels.add(b.channel());
                if (!b.channel().startsWith("channel-")) {
                    hotChannel++;
                }
                long lastBase0 = NexmarkGenerator.lastBase0AuctionId(n);
                if (b.auction() == 1000 + (lastBase0 / 100) * 100) {
                    hotAuction++;
                }
                bidBytes += 32 + b.extra().length();
            }
        }
        assertEquals(46_000, bids);
        double hot = hotChannel / (double) bids;
        assertTrue(hot > 0.48 && hot < 0.52, "hot channels " + hot);
        double hotA = hotAuction / (double) bids;
        assertTrue(hotA > 0.49 && hotA < 0.53, "hot auctions " + hotA); // 1/2, plus the random ones that hit it
        double avg = bidBytes / (double) bids;
        assertTrue(avg > 98 && avg < 102, "bid bytes " + avg);
        assertTrue(channels.contains("Google") && channels.size() > 1000, "channels " + channels.size());
    }

    @Test
    void jsonIsTheUpstreamKafkaTableRow() throws Exception {
        NexmarkGenerator g = new NexmarkGenerator(1);
        JsonNode person = MAPPER.readTree(NexmarkJson.toJson(g.next()));
        assertEquals(List.of("event_type", "person", "auction", "bid"), fields(person));
        assertEquals(0, person.get("event_type").asInt());
        assertEquals(
                List.of("id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"),
                fields(person.get("person")));
        assertTrue(person.get("auction").isNull() && person.get("bid").isNull());
        assertEquals("2026-01-01 00:00:00", person.get("person").get("dateTime").asText());
        JsonNode auction = MAPPER.readTree(NexmarkJson.toJson(g.next()));
        assertEquals(1, auction.get("event_type").asInt());
        assertEquals(
                List.of(
                        "id",
                        "itemName",
                        "description",
                        "initialBid",
                        "reserve",
                        "dateTime",
                        "expires",
                        "seller",
                        "category",
                        "extra"),
                fields(auction.get("auction")));
        for (int i = 0; i < 2; i++) {
            g.next();
        }
        JsonNode bid = MAPPER.readTree(NexmarkJson.toJson(g.next()));
        assertEquals(2, bid.get("event_type").asInt());
        assertEquals(
                List.of("auction", "bidder", "price", "channel", "url", "dateTime", "extra"), fields(bid.get("bid")));
        assertNull(bid.get("bid").get("nothing"));
    }

    @Test
    void timestampsAreFlinkJsonSqlFormat() {
        long base = NexmarkGenerator.DEFAULT_BASE_TIME_MS;
        assertEquals("2026-01-01 00:00:00", NexmarkJson.timestamp(base));
        assertEquals("2026-01-01 00:00:00.5", NexmarkJson.timestamp(base + 500));
        assertEquals("2026-01-01 00:00:01.012", NexmarkJson.timestamp(base + 1012));
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
