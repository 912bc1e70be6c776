package org.streamfusion.perf.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class OutputCheckTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Expected.BidRow bid(long auction, long bidder, long price, int ms) {
        return new Expected.BidRow(
                auction,
                bidder,
                price,
                "Google",
                "https://u",
                NexmarkJson.timestamp(NexmarkGenerator.DEFAULT_BASE_TIME_MS + ms),
                "x" + bidder);
    }

    private static String q19Key(long auction, long rank) {
        return "{\"auction\":" + auction + ",\"rank_number\":" + rank + "}";
    }

    private static String q19Value(Expected.BidRow b, long rank) {
        ObjectNode v = MAPPER.createObjectNode();
        v.put("auction", b.auction())
                .put("bidder", b.bidder())
                .put("price", b.price())
                .put("channel", b.channel())
                .put("url", b.url())
                .put("dateTime", b.dateTime())
                .put("extra", b.extra())
                .put("rank_number", rank);
        return v.toString();
    }

    /** Auction 7: 12 bids, prices 900, 500, 500, then 300 x 9: the cut at rank 10 falls inside the 300s. */
    private static List<Expected.BidRow> auction7() {
        List<Expected.BidRow> bids = new ArrayList<>();
        bids.add(bid(7, 1, 900, 0));
        bids.add(bid(7, 2, 500, 1));
        bids.add(bid(7, 3, 500, 2));
        for (int i = 0; i < 9; i++) {
            bids.add(bid(7, 10 + i, 300, 3 + i));
        }
        return bids;
    }

    private static Output q19Output(List<Expected.BidRow> rows) {
        Map<String, String> state = new HashMap<>();
        for (int r = 0; r < rows.size(); r++) {
            state.put(q19Key(rows.get(r).auction(), r + 1), q19Value(rows.get(r), r + 1));
        }
        return new Output(rows.size(), null, 0, state);
    }

    @Test
    void q19AcceptsAnyOrderOfEqualPricesAndAnyTiedBidAtTheCut() {
        Expected expected = Expected.ofQ19(Map.of(7L, new Expected.Q19(auction7())));
        List<Expected.BidRow> inOrder = auction7().subList(0, 10);
        OutputCheck.Result plain = OutputCheck.check(expected, q19Output(inOrder));
        assertTrue(plain.verified(), plain.problem());
        assertEquals(10, plain.expected());
        assertEquals(10, plain.read());
        assertEquals(0, plain.ties());

        List<Expected.BidRow> other = new ArrayList<>(auction7());
        Expected.BidRow b2 = other.get(1);
        other.set(1, other.get(2)); // the two 500s swapped
        other.set(2, b2);
        other.remove(3); // the first two 300s left out, the last two (tied at the cut) taken
        other.remove(3);
        OutputCheck.Result tied = OutputCheck.check(expected, q19Output(other));
        assertTrue(tied.verified(), tied.problem());
        assertTrue(tied.ties() >= 2, "ties " + tied.ties());
    }

    @Test
    void q19RejectsAWrongPriceAMissingRankAndATwiceTakenBid() {
        Expected expected = Expected.ofQ19(Map.of(7L, new Expected.Q19(auction7())));
        List<Expected.BidRow> wrong = new ArrayList<>(auction7().subList(0, 10));
        wrong.set(2, bid(7, 3, 400, 2));
        OutputCheck.Result r = OutputCheck.check(expected, q19Output(wrong));
        assertFalse(r.verified());
        assertEquals(1, r.mismatches());

        List<Expected.BidRow> shorter = new ArrayList<>(auction7().subList(0, 9));
        r = OutputCheck.check(expected, q19Output(shorter));
        assertEquals(1, r.missing());
        assertEquals(9, r.read());

        List<Expected.BidRow> twice = new ArrayList<>(auction7().subList(0, 10));
        twice.set(2, twice.get(1)); // the same 500 bid at ranks 2 and 3
        r = OutputCheck.check(expected, q19Output(twice));
        assertEquals(1, r.duplicates());
        assertEquals(0, r.mismatches());
    }

    private static String q9Value(NexmarkGenerator.Auction a, Expected.BidRow b) {
        ObjectNode v = MAPPER.createObjectNode();
        v.put("id", a.id())
                .put("itemName", a.itemName())
                .put("description", a.description())
                .put("initialBid", a.initialBid())
                .put("reserve", a.reserve())
                .put("dateTime", NexmarkJson.timestamp(a.dateTime()))
                .put("expires", NexmarkJson.timestamp(a.expires()))
                .put("seller", a.seller())
                .put("category", a.category())
                .put("extra", a.extra())
                .put("auction", b.auction())
                .put("bidder", b.bidder())
                .put("price", b.price())
                .put("bid_dateTime", b.dateTime())
                .put("bid_extra", b.extra());
        return v.toString();
    }

    @Test
    void q9AcceptsEitherBidTiedOnPriceAndTimeButNoOther() {
        long t = NexmarkGenerator.DEFAULT_BASE_TIME_MS;
        NexmarkGenerator.Auction a =
                new NexmarkGenerator.Auction(1000, "item", "desc", 5, 9, t, t + 10, 1001, 10, "pad");
        Expected.BidRow w1 = bid(1000, 2001, 800, 4);
        Expected.BidRow w2 = bid(1000, 2002, 800, 4);
        Expected expected = Expected.ofQ9(Map.of(1000L, new Expected.Q9(a, List.of(w1, w2))));
        for (Expected.BidRow w : List.of(w1, w2)) {
            Output out = new Output(3, null, 0, Map.of("{\"id\":1000}", q9Value(a, w)));
            OutputCheck.Result r = OutputCheck.check(expected, out);
            assertTrue(r.verified(), r.problem());
            assertEquals(w == w2 ? 1 : 0, r.ties());
        }
        Output later = new Output(1, null, 0, Map.of("{\"id\":1000}", q9Value(a, bid(1000, 2001, 800, 5))));
        assertEquals(1, OutputCheck.check(expected, later).mismatches());
        Output none = new Output(0, null, 0, Map.of());
        assertEquals(1, OutputCheck.check(expected, none).missing());
    }

    @Test
    void q0ComparesTheMultisetOfBids() {
        Corpus.Spec spec = new Corpus.Spec(500, 2, 5, NexmarkGenerator.DEFAULT_BASE_TIME_MS, 10_000_000L);
        Expected expected = Expected.of(spec, Queries.Query.Q0);
        assertEquals(460, expected.bids());
        NexmarkGenerator g = spec.generator();
        List<byte[]> values = new ArrayList<>();
        for (int n = 0; n < 500; n++) {
            NexmarkGenerator.Event e = g.next();
            if (e.bid() != null) {
                NexmarkGenerator.Bid b = e.bid();
                values.add(("{\"auction\":" + b.auction() + ",\"bidder\":" + b.bidder() + ",\"price\":" + b.price()
                                + ",\"dateTime\":\"" + NexmarkJson.timestamp(b.dateTime()) + "\",\"extra\":"
                                + MAPPER.valueToTree(b.extra()) + "}")
                        .getBytes(StandardCharsets.UTF_8));
            }
        }
        java.util.Collections.reverse(values); // order does not matter
        assertTrue(OutputCheck.check(expected, q0Output(values)).verified());
        values.set(3, values.get(4)); // one bid lost, another twice
        OutputCheck.Result r = OutputCheck.check(expected, q0Output(values));
        assertEquals(1, r.missing());
        assertEquals(1, r.duplicates());
    }

    private static Output q0Output(List<byte[]> values) {
        MessageDigest md5 = Expected.md5();
        long[] digests = new long[2 * values.size()];
        for (int i = 0; i < values.size(); i++) {
            OutputCheck.q0Digest(md5, values.get(i), digests, 2 * i);
        }
        Expected.sortPairs(digests);
        return new Output(values.size(), digests, 0, null);
    }
}
