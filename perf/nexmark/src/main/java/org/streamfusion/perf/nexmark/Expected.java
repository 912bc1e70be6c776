package org.streamfusion.perf.nexmark;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a query must output for a corpus, computed from the corpus' events (regenerated from its
 * {@link Corpus.Spec}, so no broker is read), with the freedom the query leaves made explicit instead of a
 * single expected row:
 *
 * <ul>
 *   <li>q0: the multiset of every bid's {@code (auction, bidder, price, dateTime, extra)}, as a sorted array of
 *       128-bit digests ({@link #q0Digests}); nothing is left open.</li>
 *   <li>q9: per auction that has at least one bid with {@code auction = id} and {@code dateTime} between the
 *       auction's {@code dateTime} and {@code expires} (inclusive, as SQL's {@code BETWEEN}): the auction and
 *       every bid that ranks first under {@code ORDER BY price DESC, dateTime ASC}. Several bids rank first when
 *       they tie on price and time (the event time has millisecond resolution and the default rate is 10,000
 *       events per millisecond); {@code ROW_NUMBER} then picks one of them by arrival order, so any of them is
 *       a correct answer ({@link Q9}).</li>
 *   <li>q19: per auction, its bids sorted by price descending and cut after the 10th, keeping every bid that
 *       ties with the 10th ({@link Q19}): the price at each rank is fixed, and the bids of one price fill that
 *       price's ranks in any order; at the cut, which of the tied bids fill the last ranks is open.</li>
 * </ul>
 *
 * <p>Memory: q0 16 bytes per bid; q9 the auctions' times (about 6% of the events) plus the tied winners; q19
 * at most about 40 bids per auction at any time.
 */
public final class Expected {
    /** q19's {@code rank_number <= 10}. */
    public static final int TOP_N = 10;

    /**
     * A bid as the outputs carry it; {@code dateTime} as Flink json writes it.
     *
     * @param auction auction id
     * @param bidder bidder id
     * @param price price
     * @param channel channel
     * @param url URL
     * @param dateTime event time text ({@link NexmarkJson#timestamp})
     * @param extra padding
     */
    public record BidRow(
            long auction, long bidder, long price, String channel, String url, String dateTime, String extra) {
        static BidRow of(NexmarkGenerator.Bid b) {
            return new BidRow(
                    b.auction(),
                    b.bidder(),
                    b.price(),
                    b.channel(),
                    b.url(),
                    NexmarkJson.timestamp(b.dateTime()),
                    b.extra());
        }
    }

    /**
     * q9's answer for one auction.
     *
     * @param auction the auction
     * @param winners every bid that ranks first (at least one), in corpus order
     */
    public record Q9(NexmarkGenerator.Auction auction, List<BidRow> winners) {}

    /**
     * q19's answer for one auction.
     *
     * @param ranked the bids by price descending (corpus order within a price), the first {@code min(10, bids)}
     *     and every later one that ties with the 10th
     */
    public record Q19(List<BidRow> ranked) {
        /** How many ranks the output has: {@code min(10, bids of the auction)}. */
        public int ranks() {
            return Math.min(TOP_N, ranked.size());
        }
    }

    private final Queries.Query query;
    private final long bids;
    private final long[] q0Digests;
    private final Map<Long, Q9> q9;
    private final Map<Long, Q19> q19;

    private Expected(Queries.Query query, long bids, long[] q0Digests, Map<Long, Q9> q9, Map<Long, Q19> q19) {
        this.query = query;
        this.bids = bids;
        this.q0Digests = q0Digests;
        this.q9 = q9;
        this.q19 = q19;
    }

    /** A q19 answer given directly (tests). */
    static Expected ofQ19(Map<Long, Q19> answer) {
        return new Expected(Queries.Query.Q19, 0, null, null, answer);
    }

    /** A q9 answer given directly (tests). */
    static Expected ofQ9(Map<Long, Q9> answer) {
        return new Expected(Queries.Query.Q9, 0, null, answer, null);
    }

    /** The query this is the answer of. */
    public Queries.Query query() {
        return query;
    }

    /** The bids in the corpus. */
    public long bids() {
        return bids;
    }

    /** q0: the sorted digests (pairs of longs, {@link #q0Digest}) of every bid; null for other queries. */
    public long[] q0Digests() {
        return q0Digests;
    }

    /** q9 by auction id; null for other queries. */
    public Map<Long, Q9> q9() {
        return q9;
    }

    /** q19 by auction id; null for other queries. */
    public Map<Long, Q19> q19() {
        return q19;
    }

    /** The records the final output holds: q0 one per bid, q9 one per auction won, q19 the ranks. */
    public long outputRecords() {
        return switch (query) {
            case Q0 -> bids;
            case Q9 -> q9.size();
            case Q19 -> q19.values().stream().mapToLong(Q19::ranks).sum();
        };
    }

    /**
     * Computes the answer of {@code query} for {@code spec}.
     *
     * @param spec the corpus
     * @param query the query
     * @return the answer
     */
    public static Expected of(Corpus.Spec spec, Queries.Query query) {
        return switch (query) {
            case Q0 -> q0(spec);
            case Q9 -> q9(spec);
            case Q19 -> q19(spec);
        };
    }

    /** The digest of a q0 row: MD5 of its fields joined by {@code \u0001}, as two longs written to {@code out}. */
    static void q0Digest(
            MessageDigest md5,
            long auction,
            long bidder,
            long price,
            String dateTime,
            String extra,
            long[] out,
            int at) {
        String text = auction + "\u0001" + bidder + "\u0001" + price + "\u0001" + dateTime + "\u0001" + extra;
        byte[] d = md5.digest(text.getBytes(StandardCharsets.UTF_8));
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (d[i] & 0xff);
            lo = (lo << 8) | (d[8 + i] & 0xff);
        }
        out[at] = hi;
        out[at + 1] = lo;
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sorts pairs of longs (a flat array) by (first, second), unsigned order irrelevant but consistent. */
    static void sortPairs(long[] pairs) {
        int n = pairs.length / 2;
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        java.util.Arrays.sort(idx, (a, b) -> {
            int c = Long.compare(pairs[2 * a], pairs[2 * b]);
            return c != 0 ? c : Long.compare(pairs[2 * a + 1], pairs[2 * b + 1]);
        });
        long[] copy = pairs.clone();
        for (int i = 0; i < n; i++) {
            pairs[2 * i] = copy[2 * idx[i]];
            pairs[2 * i + 1] = copy[2 * idx[i] + 1];
        }
    }

    private static Expected q0(Corpus.Spec spec) {
        long bids = NexmarkGenerator.count(spec.events(), NexmarkGenerator.Type.BID);
        long[] digests = new long[Math.toIntExact(2 * bids)];
        MessageDigest md5 = md5();
        NexmarkGenerator g = spec.generator();
        int at = 0;
        for (long n = 0; n < spec.events(); n++) {
            NexmarkGenerator.Event e = g.next();
            if (e.bid() != null) {
                NexmarkGenerator.Bid b = e.bid();
                q0Digest(
                        md5,
                        b.auction(),
                        b.bidder(),
                        b.price(),
                        NexmarkJson.timestamp(b.dateTime()),
                        b.extra(),
                        digests,
                        at);
                at += 2;
            }
        }
        sortPairs(digests);
        return new Expected(Queries.Query.Q0, bids, digests, null, null);
    }

    private static Expected q9(Corpus.Spec spec) {
        long bids = NexmarkGenerator.count(spec.events(), NexmarkGenerator.Type.BID);
        // Pass 1: every auction's time range (a bid may come before its auction: ids lead by up to 10).
        Map<Long, long[]> ranges = new HashMap<>();
        NexmarkGenerator g = spec.generator();
        for (long n = 0; n < spec.events(); n++) {
            NexmarkGenerator.Event e = g.next();
            if (e.auction() != null) {
                ranges.put(
                        e.auction().id(),
                        new long[] {e.auction().dateTime(), e.auction().expires()});
            }
        }
        // Pass 2: the first-ranked bids of each auction, and the auctions themselves.
        Map<Long, NexmarkGenerator.Auction> auctions = new HashMap<>();
        Map<Long, List<NexmarkGenerator.Bid>> best = new HashMap<>();
        g = spec.generator();
        for (long n = 0; n < spec.events(); n++) {
            NexmarkGenerator.Event e = g.next();
            if (e.auction() != null) {
                auctions.put(e.auction().id(), e.auction());
            } else if (e.bid() != null) {
                NexmarkGenerator.Bid b = e.bid();
                long[] range = ranges.get(b.auction());
                if (range == null || b.dateTime() < range[0] || b.dateTime() > range[1]) {
                    continue;
                }
                List<NexmarkGenerator.Bid> top = best.computeIfAbsent(b.auction(), k -> new ArrayList<>(1));
                if (top.isEmpty()) {
                    top.add(b);
                    continue;
                }
                NexmarkGenerator.Bid first = top.get(0);
                if (b.price() > first.price() || (b.price() == first.price() && b.dateTime() < first.dateTime())) {
                    top.clear();
                    top.add(b);
                } else if (b.price() == first.price() && b.dateTime() == first.dateTime()) {
                    top.add(b);
                }
            }
        }
        Map<Long, Q9> out = new HashMap<>();
        for (Map.Entry<Long, List<NexmarkGenerator.Bid>> e : best.entrySet()) {
            out.put(
                    e.getKey(),
                    new Q9(
                            auctions.get(e.getKey()),
                            e.getValue().stream().map(BidRow::of).toList()));
        }
        return new Expected(Queries.Query.Q9, bids, null, out, null);
    }

    private static final Comparator<NexmarkGenerator.Bid> BY_PRICE_DESC =
            Comparator.comparingLong(NexmarkGenerator.Bid::price).reversed();

    private static void cut(List<NexmarkGenerator.Bid> list) {
        list.sort(BY_PRICE_DESC); // stable: corpus order within a price
        if (list.size() > TOP_N) {
            long tenth = list.get(TOP_N - 1).price();
            int keep = TOP_N;
            while (keep < list.size() && list.get(keep).price() == tenth) {
                keep++;
            }
            list.subList(keep, list.size()).clear();
        }
    }

    private static Expected q19(Corpus.Spec spec) {
        long bids = NexmarkGenerator.count(spec.events(), NexmarkGenerator.Type.BID);
        Map<Long, List<NexmarkGenerator.Bid>> byAuction = new HashMap<>();
        NexmarkGenerator g = spec.generator();
        for (long n = 0; n < spec.events(); n++) {
            NexmarkGenerator.Event e = g.next();
            if (e.bid() != null) {
                List<NexmarkGenerator.Bid> list =
                        byAuction.computeIfAbsent(e.bid().auction(), k -> new ArrayList<>());
                list.add(e.bid());
                if (list.size() >= 4 * TOP_N) {
                    cut(list);
                }
            }
        }
        Map<Long, Q19> out = new HashMap<>();
        for (Map.Entry<Long, List<NexmarkGenerator.Bid>> e : byAuction.entrySet()) {
            cut(e.getValue());
            out.put(e.getKey(), new Q19(e.getValue().stream().map(BidRow::of).toList()));
        }
        return new Expected(Queries.Query.Q19, bids, null, null, out);
    }
}
