package org.streamfusion.perf.nexmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Checks a query's output ({@link Output}) against its answer ({@link Expected}), accounting for the ties the
 * query leaves open instead of skipping them:
 *
 * <ul>
 *   <li>q0: the multiset of {@code (auction, bidder, price, dateTime, extra)} read equals the corpus' bids.</li>
 *   <li>q9: one record per auction won; its auction columns equal the auction; its bid columns
 *       {@code (auction, bidder, price, bid_dateTime, bid_extra)} equal one of the bids that rank first (a
 *       tie on price and time allows any of them, counted in {@link Result#ties}).</li>
 *   <li>q19: per auction exactly ranks {@code 1 .. min(10, bids)}; the price at each rank equals the answer's;
 *       the rows of one price are a sub-multiset of the auction's bids at that price of the right size (equal
 *       to all of them above the cut; at the 10th-rank cut any of the tied bids). A row that is valid but not
 *       the one the answer lists at that rank (another order of equal prices, or another tied bid at the cut)
 *       counts in {@link Result#ties}.</li>
 * </ul>
 * Two sinks that both pass agree up to those ties; {@link #sameAs} says whether their bytes agree too.
 */
public final class OutputCheck {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int EXAMPLES = 5;

    private OutputCheck() {}

    /**
     * A check's counts.
     *
     * @param expected records the final output must hold
     * @param read records in the final output (q0: read; upsert: keys after the changelog)
     * @param missing expected records not found
     * @param duplicates records found more often than expected
     * @param mismatches records that match no expected record
     * @param ties valid records that another sink could rightly have written differently
     * @param examples up to five descriptions of problems
     */
    public record Result(
            long expected,
            long read,
            long missing,
            long duplicates,
            long mismatches,
            long ties,
            List<String> examples) {
        /** True when nothing is missing, duplicated or mismatched. */
        public boolean verified() {
            return missing == 0 && duplicates == 0 && mismatches == 0;
        }

        /** Empty when verified, else the counts and the first examples. */
        public String problem() {
            return verified()
                    ? ""
                    : "missing " + missing + ", duplicates " + duplicates + ", mismatches " + mismatches + ": "
                            + String.join("; ", examples);
        }
    }

    private static final class Counts {
        long missing;
        long duplicates;
        long mismatches;
        long ties;
        final List<String> examples = new ArrayList<>();

        void example(String text) {
            if (examples.size() < EXAMPLES) {
                examples.add(text);
            }
        }
    }

    /** The q0 digest of a raw output value (its five fields, as {@link Expected} digests a bid). */
    static void q0Digest(MessageDigest md5, byte[] value, long[] out, int at) {
        JsonNode v = parse(value);
        Expected.q0Digest(
                md5,
                v.get("auction").asLong(),
                v.get("bidder").asLong(),
                v.get("price").asLong(),
                v.get("dateTime").asText(),
                v.get("extra").asText(),
                out,
                at);
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            return MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }

    private static JsonNode parse(String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Checks {@code output} against {@code expected}.
     *
     * @param expected the answer of the query that wrote the output
     * @param output the output
     * @return the counts
     */
    public static Result check(Expected expected, Output output) {
        return switch (expected.query()) {
            case Q0 -> checkQ0(expected, output);
            case Q9 -> checkQ9(expected, output);
            case Q19 -> checkQ19(expected, output);
        };
    }

    /**
     * Whether two outputs of one query are the same bytes: q0 the same multiset of values, upsert the same
     * final value bytes per key. False is no error when both pass {@link #check}: ties were taken differently.
     */
    public static boolean sameAs(Output a, Output b) {
        if (a.finalState() == null) {
            return a.records() == b.records() && a.rawHash() == b.rawHash();
        }
        return a.finalState().equals(b.finalState());
    }

    private static Result checkQ0(Expected expected, Output output) {
        long[] want = expected.q0Digests();
        long[] got = output.rowDigests();
        Counts c = new Counts();
        int i = 0;
        int j = 0;
        while (i < want.length || j < got.length) {
            int cmp = i >= want.length ? 1 : j >= got.length ? -1 : comparePair(want, i, got, j);
            if (cmp == 0) {
                i += 2;
                j += 2;
            } else if (cmp < 0) {
                c.missing++;
                i += 2;
            } else {
                boolean dup = j >= 2 && got[j] == got[j - 2] && got[j + 1] == got[j - 1];
                if (dup) {
                    c.duplicates++;
                } else {
                    c.mismatches++;
                }
                j += 2;
            }
        }
        if (c.missing + c.duplicates + c.mismatches > 0) {
            c.example("q0 rows differ from the corpus' bids (digest multiset)");
        }
        return new Result(want.length / 2, got.length / 2, c.missing, c.duplicates, c.mismatches, 0, c.examples);
    }

    private static int comparePair(long[] a, int i, long[] b, int j) {
        int c = Long.compare(a[i], b[j]);
        return c != 0 ? c : Long.compare(a[i + 1], b[j + 1]);
    }

    private static Expected.BidRow bidRow(JsonNode v, String dateTime, String extra) {
        return new Expected.BidRow(
                v.get("auction").asLong(),
                v.get("bidder").asLong(),
                v.get("price").asLong(),
                v.has("channel") ? v.get("channel").asText() : null,
                v.has("url") ? v.get("url").asText() : null,
                v.get(dateTime).asText(),
                v.get(extra).asText());
    }

    private static boolean sameBid(Expected.BidRow a, Expected.BidRow b, boolean withChannel) {
        return a.auction() == b.auction()
                && a.bidder() == b.bidder()
                && a.price() == b.price()
                && a.dateTime().equals(b.dateTime())
                && a.extra().equals(b.extra())
                && (!withChannel || (a.channel().equals(b.channel()) && a.url().equals(b.url())));
    }

    private static Result checkQ9(Expected expected, Output output) {
        Counts c = new Counts();
        Map<Long, Expected.Q9> want = expected.q9();
        Map<Long, JsonNode> got = new HashMap<>();
        for (Map.Entry<String, String> e : output.finalState().entrySet()) {
            long id = parse(e.getKey()).get("id").asLong();
            got.put(id, parse(e.getValue()));
        }
        for (Map.Entry<Long, Expected.Q9> e : want.entrySet()) {
            JsonNode v = got.get(e.getKey());
            if (v == null) {
                c.missing++;
                c.example("q9: no row for auction " + e.getKey());
                continue;
            }
            NexmarkGenerator.Auction a = e.getValue().auction();
            boolean auctionOk = v.get("id").asLong() == a.id()
                    && v.get("itemName").asText().equals(a.itemName())
                    && v.get("description").asText().equals(a.description())
                    && v.get("initialBid").asLong() == a.initialBid()
                    && v.get("reserve").asLong() == a.reserve()
                    && v.get("dateTime").asText().equals(NexmarkJson.timestamp(a.dateTime()))
                    && v.get("expires").asText().equals(NexmarkJson.timestamp(a.expires()))
                    && v.get("seller").asLong() == a.seller()
                    && v.get("category").asLong() == a.category()
                    && v.get("extra").asText().equals(a.extra());
            Expected.BidRow bid = bidRow(v, "bid_dateTime", "bid_extra");
            List<Expected.BidRow> winners = e.getValue().winners();
            int which = -1;
            for (int k = 0; k < winners.size() && which < 0; k++) {
                if (sameBid(bid, winners.get(k), false)) {
                    which = k;
                }
            }
            if (!auctionOk || which < 0) {
                c.mismatches++;
                c.example("q9 auction " + e.getKey() + ": " + v + (auctionOk ? " is not a winning bid" : ""));
            } else if (which > 0) {
                c.ties++;
            }
        }
        for (Long id : got.keySet()) {
            if (!want.containsKey(id)) {
                c.mismatches++;
                c.example("q9: a row for auction " + id + ", which has no bid in its time range");
            }
        }
        return new Result(want.size(), got.size(), c.missing, c.duplicates, c.mismatches, c.ties, c.examples);
    }

    private static Result checkQ19(Expected expected, Output output) {
        Counts c = new Counts();
        Map<Long, TreeMap<Long, JsonNode>> got = new HashMap<>();
        for (Map.Entry<String, String> e : output.finalState().entrySet()) {
            JsonNode key = parse(e.getKey());
            JsonNode v = parse(e.getValue());
            long auction = key.get("auction").asLong();
            long rank = key.get("rank_number").asLong();
            if (v.get("auction").asLong() != auction || v.get("rank_number").asLong() != rank) {
                c.mismatches++;
                c.example("q19: key " + e.getKey() + " holds " + e.getValue());
                continue;
            }
            got.computeIfAbsent(auction, k -> new TreeMap<>()).put(rank, v);
        }
        long expectedRows = 0;
        long readRows = output.finalState().size();
        for (Map.Entry<Long, Expected.Q19> e : expected.q19().entrySet()) {
            List<Expected.BidRow> ranked = e.getValue().ranked();
            int ranks = e.getValue().ranks();
            expectedRows += ranks;
            TreeMap<Long, JsonNode> rows = got.getOrDefault(e.getKey(), new TreeMap<>());
            // Tied bids still available, per price: the answer's candidates (all bids of that price it kept).
            Map<Long, List<Expected.BidRow>> available = new HashMap<>();
            for (Expected.BidRow b : ranked) {
                available.computeIfAbsent(b.price(), k -> new ArrayList<>()).add(b);
            }
            for (int r = 1; r <= ranks; r++) {
                JsonNode v = rows.remove((long) r);
                if (v == null) {
                    c.missing++;
                    c.example("q19 auction " + e.getKey() + ": no rank " + r);
                    continue;
                }
                Expected.BidRow row = bidRow(v, "dateTime", "extra");
                long price = ranked.get(r - 1).price();
                if (row.price() != price) {
                    c.mismatches++;
                    c.example("q19 auction " + e.getKey() + " rank " + r + ": price " + row.price() + ", expected "
                            + price);
                    continue;
                }
                List<Expected.BidRow> candidates = available.get(price);
                int found = -1;
                for (int k = 0; k < candidates.size() && found < 0; k++) {
                    if (sameBid(row, candidates.get(k), true)) {
                        found = k;
                    }
                }
                if (found < 0) {
                    boolean seen = ranked.stream().anyMatch(b -> sameBid(row, b, true));
                    if (seen) {
                        c.duplicates++;
                    } else {
                        c.mismatches++;
                    }
                    c.example("q19 auction " + e.getKey() + " rank " + r + ": " + v
                            + (seen ? " appears more often than bid" : " is no bid of this price"));
                    continue;
                }
                if (!sameBid(row, ranked.get(r - 1), true)) {
                    c.ties++;
                }
                candidates.remove(found);
            }
            for (Map.Entry<Long, JsonNode> extra : rows.entrySet()) {
                c.mismatches++;
                c.example("q19 auction " + e.getKey() + ": rank " + extra.getKey() + " beyond " + ranks);
            }
        }
        for (Map.Entry<Long, TreeMap<Long, JsonNode>> e : got.entrySet()) {
            if (!expected.q19().containsKey(e.getKey())) {
                c.mismatches += e.getValue().size();
                c.example("q19: rows for auction " + e.getKey() + ", which has no bids");
            }
        }
        return new Result(expectedRows, readRows, c.missing, c.duplicates, c.mismatches, c.ties, c.examples);
    }
}
