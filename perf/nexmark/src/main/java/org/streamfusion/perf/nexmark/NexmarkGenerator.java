package org.streamfusion.perf.nexmark;

import java.util.SplittableRandom;

/**
 * Nexmark events by event number, with the upstream generator's ids and field distributions
 * ({@code nexmark/nexmark}, {@code nexmark-flink/.../generator/}, Apache-2.0: {@code NexmarkGenerator},
 * {@code GeneratorConfig}, {@code PersonGenerator}, {@code AuctionGenerator}, {@code BidGenerator},
 * {@code PriceGenerator}, {@code StringsGenerator}, {@code LongGenerator}), re-implemented here (the upstream
 * project is not on Maven Central) and made deterministic: upstream draws from an unseeded
 * {@link SplittableRandom} (and from unseeded static ones for the URL cache and the 1 MiB {@code extra} pool);
 * here every one of them is seeded from {@link #seed}, so the same seed gives the same events, in order.
 *
 * <p>What is reproduced, with upstream's default configuration: event {@code n} (from 0) is a person when
 * {@code n mod 50 < 1}, an auction when {@code < 4}, else a bid (proportions 1:3:46); person and auction ids
 * start at 1000 and follow the event number ({@code lastBase0PersonId}, {@code lastBase0AuctionId}); 100
 * in-flight auctions, 1000 active people, id leads of 10; hot ratios auction 2, bidder 4, seller 4 (a hot
 * auction or person is the first, or for bidders the second, of the last batch of 100); price
 * {@code round(10^(6u) * 100)}; bid channel one of Google/Facebook/Baidu/Apple half the time, else one of
 * 10,000 {@code channel-i} whose URL carries {@code &channel_id=} 90% of the time; {@code extra} pads person,
 * auction and bid to 200, 500 and 100 bytes on average (plus or minus 20%); event time =
 * {@code baseTime + floor(n * 10^6 / rate) / 1000} milliseconds (upstream: {@code timestampForEvent}, one
 * generator, no out-of-order groups). Upstream quirks kept on purpose, since they shape the data: the bid's
 * bidder gets {@code FIRST_PERSON_ID} added twice (bidder ids start at 2000), and the {@code extra} pool is
 * built with {@code 'a' + rnd % 26} of a signed int, so it holds {@code H}..{@code `} (including {@code \})
 * besides lower-case letters.
 *
 * <p>Not thread-safe; one generator yields one stream of events in event-number order.
 */
public final class NexmarkGenerator {
    /** Upstream {@code GeneratorConfig.FIRST_PERSON_ID}. */
    public static final long FIRST_PERSON_ID = 1000L;
    /** Upstream {@code GeneratorConfig.FIRST_AUCTION_ID}. */
    public static final long FIRST_AUCTION_ID = 1000L;
    /** Upstream {@code GeneratorConfig.FIRST_CATEGORY_ID}. */
    public static final long FIRST_CATEGORY_ID = 10L;
    /** Person proportion (upstream default). */
    public static final int PERSON_PROPORTION = 1;
    /** Auction proportion (upstream default). */
    public static final int AUCTION_PROPORTION = 3;
    /** Bid proportion (upstream default). */
    public static final int BID_PROPORTION = 46;
    /** Sum of the proportions: the event number modulo this picks the type. */
    public static final int TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
    /** The default base time: 2026-01-01T00:00:00Z in Unix milliseconds (as {@code streamfusion}'s bids). */
    public static final long DEFAULT_BASE_TIME_MS = 1_767_225_600_000L;
    /** The default event rate: events per second of event time, upstream's benchmark suite {@code tps}. */
    public static final long DEFAULT_RATE = 10_000_000L;

    private static final int NUM_IN_FLIGHT_AUCTIONS = 100;
    private static final int NUM_ACTIVE_PEOPLE = 1000;
    private static final int HOT_AUCTION_RATIO = 2;
    private static final int HOT_SELLERS_RATIO = 4;
    private static final int HOT_BIDDERS_RATIO = 4;
    private static final int AVG_PERSON_BYTES = 200;
    private static final int AVG_AUCTION_BYTES = 500;
    private static final int AVG_BID_BYTES = 100;
    private static final int ID_LEAD = 10;
    private static final int HOT_BATCH = 100;
    private static final int NUM_CATEGORIES = 5;
    private static final int MIN_STRING_LENGTH = 3;
    private static final int CHANNELS = 10_000;
    private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    private static final String[] US_STATES = "AZ,CA,ID,OR,WA,WY".split(",");
    private static final String[] US_CITIES =
            "Phoenix,Los Angeles,San Francisco,Boise,Portland,Bend,Redmond,Seattle,Kent,Cheyenne".split(",");
    private static final String[] FIRST_NAMES =
            "Peter,Paul,Luke,John,Saul,Vicky,Kate,Julie,Sarah,Deiter,Walter".split(",");
    private static final String[] LAST_NAMES =
            "Shultz,Abrams,Spencer,White,Bartels,Walton,Smith,Jones,Noris".split(",");

    /** Event type as upstream's {@code Event.Type} numbers it ({@code event_type} column). */
    public enum Type {
        /** {@code event_type = 0}. */
        PERSON,
        /** {@code event_type = 1}. */
        AUCTION,
        /** {@code event_type = 2}. */
        BID
    }

    /**
     * A person (upstream {@code Person}); {@code dateTime} in Unix milliseconds.
     *
     * @param id person id (from 1000)
     * @param name first and last name
     * @param emailAddress random address
     * @param creditCard four groups of four digits
     * @param city one of ten US cities
     * @param state one of six US states
     * @param dateTime event time, Unix milliseconds
     * @param extra padding
     */
    public record Person(
            long id,
            String name,
            String emailAddress,
            String creditCard,
            String city,
            String state,
            long dateTime,
            String extra) {}

    /**
     * An auction (upstream {@code Auction}); times in Unix milliseconds.
     *
     * @param id auction id (from 1000)
     * @param itemName random name (up to 20 chars)
     * @param description random text (up to 100 chars)
     * @param initialBid a price
     * @param reserve initial bid plus a price
     * @param dateTime event time, Unix milliseconds
     * @param expires {@code dateTime} plus a random length, Unix milliseconds
     * @param seller person id
     * @param category 10..14
     * @param extra padding
     */
    public record Auction(
            long id,
            String itemName,
            String description,
            long initialBid,
            long reserve,
            long dateTime,
            long expires,
            long seller,
            long category,
            String extra) {}

    /**
     * A bid (upstream {@code Bid}); {@code dateTime} in Unix milliseconds.
     *
     * @param auction auction id
     * @param bidder person id (+1000 more, as upstream)
     * @param price a price
     * @param channel a hot channel name or {@code channel-i}
     * @param url the channel's URL
     * @param dateTime event time, Unix milliseconds
     * @param extra padding
     */
    public record Bid(long auction, long bidder, long price, String channel, String url, long dateTime, String extra) {}

    /**
     * One event: exactly one of {@code person}, {@code auction}, {@code bid} is set, as {@code type} says.
     *
     * @param number the event number (from 0)
     * @param type what it is
     * @param person the person, or null
     * @param auction the auction, or null
     * @param bid the bid, or null
     */
    public record Event(long number, Type type, Person person, Auction auction, Bid bid) {
        /** The event time of the event, Unix milliseconds (the {@code dateTime} computed column). */
        public long dateTime() {
            return switch (type) {
                case PERSON -> person.dateTime();
                case AUCTION -> auction.dateTime();
                case BID -> bid.dateTime();
            };
        }
    }

    private final long seed;
    private final long baseTime;
    private final double interEventDelayUs;
    private final SplittableRandom random;
    private final String extraPool;
    private final String[] hotUrls;
    private final String[] channelUrls;
    private long next;

    /**
     * A generator of events 0, 1, 2, ... for {@code seed}.
     *
     * @param seed seeds every random choice
     * @param baseTimeMs event time of event 0, Unix milliseconds
     * @param rate events per second of event time (upstream {@code first-event.rate}), at least 1
     * @throws IllegalArgumentException if {@code rate < 1}
     */
    public NexmarkGenerator(long seed, long baseTimeMs, long rate) {
        if (rate < 1) {
            throw new IllegalArgumentException("rate must be at least 1 event/s, got " + rate);
        }
        this.seed = seed;
        this.baseTime = baseTimeMs;
        this.interEventDelayUs = 1_000_000.0 / rate;
        this.random = new SplittableRandom(seed);
        SplittableRandom statics = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.extraPool = exactStringFresh(statics, 1024 * 1024);
        this.hotUrls = new String[HOT_CHANNELS.length];
        for (int i = 0; i < hotUrls.length; i++) {
            hotUrls[i] = baseUrl(statics);
        }
        this.channelUrls = new String[CHANNELS];
        for (int i = 0; i < CHANNELS; i++) {
            String url = baseUrl(statics);
            if (statics.nextInt(10) > 0) {
                url = url + "&channel_id=" + Math.abs(Integer.reverse(i));
            }
            channelUrls[i] = url;
        }
    }

    /** A generator with {@link #DEFAULT_BASE_TIME_MS} and {@link #DEFAULT_RATE}. */
    public NexmarkGenerator(long seed) {
        this(seed, DEFAULT_BASE_TIME_MS, DEFAULT_RATE);
    }

    /** The seed this generator was built with. */
    public long seed() {
        return seed;
    }

    /** The type of event {@code n}: person, auction or bid by {@code n mod 50} (1:3:46). */
    public static Type typeOf(long n) {
        long rem = n % TOTAL_PROPORTION;
        return rem < PERSON_PROPORTION
                ? Type.PERSON
                : rem < PERSON_PROPORTION + AUCTION_PROPORTION ? Type.AUCTION : Type.BID;
    }

    /** How many of events {@code 0 .. n-1} are of {@code type}. */
    public static long count(long n, Type type) {
        long full = n / TOTAL_PROPORTION;
        long rest = n % TOTAL_PROPORTION;
        return switch (type) {
            case PERSON -> full * PERSON_PROPORTION + Math.min(rest, PERSON_PROPORTION);
            case AUCTION ->
                full * AUCTION_PROPORTION
                        + Math.max(0, Math.min(rest, PERSON_PROPORTION + AUCTION_PROPORTION) - PERSON_PROPORTION);
            case BID -> full * BID_PROPORTION + Math.max(0, rest - PERSON_PROPORTION - AUCTION_PROPORTION);
        };
    }

    /** The next event (numbers 0, 1, 2, ... in order). */
    public Event next() {
        long n = next++;
        long timestamp = baseTime + (long) (n * interEventDelayUs) / 1000L;
        return switch (typeOf(n)) {
            case PERSON -> new Event(n, Type.PERSON, person(n, timestamp), null, null);
            case AUCTION -> new Event(n, Type.AUCTION, null, auction(n, timestamp), null);
            case BID -> new Event(n, Type.BID, null, null, bid(n, timestamp));
        };
    }

    private long timestampForEvent(long n) {
        return baseTime + (long) (n * interEventDelayUs) / 1000L;
    }

    // --- ids (upstream PersonGenerator / AuctionGenerator) ---

    static long lastBase0PersonId(long eventId) {
        long epoch = eventId / TOTAL_PROPORTION;
        long offset = eventId % TOTAL_PROPORTION;
        if (offset >= PERSON_PROPORTION) {
            offset = PERSON_PROPORTION - 1;
        }
        return epoch * PERSON_PROPORTION + offset;
    }

    static long lastBase0AuctionId(long eventId) {
        long epoch = eventId / TOTAL_PROPORTION;
        long offset = eventId % TOTAL_PROPORTION;
        if (offset < PERSON_PROPORTION) {
            epoch--;
            offset = AUCTION_PROPORTION - 1;
        } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
            offset = AUCTION_PROPORTION - 1;
        } else {
            offset -= PERSON_PROPORTION;
        }
        return epoch * AUCTION_PROPORTION + offset;
    }

    private long nextBase0PersonId(long eventId) {
        long numPeople = lastBase0PersonId(eventId) + 1;
        long activePeople = Math.min(numPeople, NUM_ACTIVE_PEOPLE);
        long n = nextLong(activePeople + ID_LEAD);
        return numPeople - activePeople + n;
    }

    private long nextBase0AuctionId(long eventId) {
        long minAuction = Math.max(lastBase0AuctionId(eventId) - NUM_IN_FLIGHT_AUCTIONS, 0);
        long maxAuction = lastBase0AuctionId(eventId);
        return minAuction + nextLong(maxAuction - minAuction + 1 + ID_LEAD);
    }

    private long nextLong(long n) {
        return n < Integer.MAX_VALUE ? random.nextInt((int) n) : Math.abs(random.nextLong() % n);
    }

    private long nextPrice() {
        return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
    }

    // --- events ---

    private Person person(long eventId, long timestamp) {
        long id = lastBase0PersonId(eventId) + FIRST_PERSON_ID;
        String name =
                FIRST_NAMES[random.nextInt(FIRST_NAMES.length)] + " " + LAST_NAMES[random.nextInt(LAST_NAMES.length)];
        String email = nextString(random, 7, ' ') + "@" + nextString(random, 5, ' ') + ".com";
        StringBuilder card = new StringBuilder(19);
        for (int i = 0; i < 4; i++) {
            if (i > 0) {
                card.append(' ');
            }
            card.append(String.format("%04d", random.nextInt(10_000)));
        }
        String city = US_CITIES[random.nextInt(US_CITIES.length)];
        String state = US_STATES[random.nextInt(US_STATES.length)];
        int currentSize = 8 + name.length() + email.length() + card.length() + city.length() + state.length();
        String extra = nextExtra(currentSize, AVG_PERSON_BYTES);
        return new Person(id, name, email, card.toString(), city, state, timestamp, extra);
    }

    private Auction auction(long eventId, long timestamp) {
        long id = lastBase0AuctionId(eventId) + FIRST_AUCTION_ID;
        long seller;
        if (random.nextInt(HOT_SELLERS_RATIO) > 0) {
            seller = (lastBase0PersonId(eventId) / HOT_BATCH) * HOT_BATCH;
        } else {
            seller = nextBase0PersonId(eventId);
        }
        seller += FIRST_PERSON_ID;
        long category = FIRST_CATEGORY_ID + random.nextInt(NUM_CATEGORIES);
        long initialBid = nextPrice();
        // upstream nextAuctionLengthMs: the event count so far is the event number here (one generator)
        long numEventsForAuctions = ((long) NUM_IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION) / AUCTION_PROPORTION;
        long futureAuction = timestampForEvent(eventId + numEventsForAuctions);
        long horizonMs = futureAuction - timestamp;
        long expires = timestamp + 1L + nextLong(Math.max(horizonMs * 2, 1L));
        String name = nextString(random, 20, ' ');
        String desc = nextString(random, 100, ' ');
        long reserve = initialBid + nextPrice();
        int currentSize = 8 + name.length() + desc.length() + 8 + 8 + 8 + 8 + 8;
        String extra = nextExtra(currentSize, AVG_AUCTION_BYTES);
        return new Auction(id, name, desc, initialBid, reserve, timestamp, expires, seller, category, extra);
    }

    private Bid bid(long eventId, long timestamp) {
        long auction;
        if (random.nextInt(HOT_AUCTION_RATIO) > 0) {
            auction = (lastBase0AuctionId(eventId) / HOT_BATCH) * HOT_BATCH;
        } else {
            auction = nextBase0AuctionId(eventId);
        }
        auction += FIRST_AUCTION_ID;
        long bidder;
        if (random.nextInt(HOT_BIDDERS_RATIO) > 0) {
            bidder = (lastBase0PersonId(eventId) / HOT_BATCH) * HOT_BATCH + 1;
        } else {
            bidder = nextBase0PersonId(eventId);
        }
        bidder += FIRST_PERSON_ID;
        long price = nextPrice();
        String channel;
        String url;
        if (random.nextInt(2) > 0) {
            int i = random.nextInt(HOT_CHANNELS.length);
            channel = HOT_CHANNELS[i];
            url = hotUrls[i];
        } else {
            int c = random.nextInt(CHANNELS);
            channel = "channel-" + c;
            url = channelUrls[c];
        }
        bidder += FIRST_PERSON_ID; // upstream adds it twice
        String extra = nextExtra(8 + 8 + 8 + 8, AVG_BID_BYTES);
        return new Bid(auction, bidder, price, channel, url, timestamp, extra);
    }

    // --- strings (upstream StringsGenerator) ---

    private static String baseUrl(SplittableRandom r) {
        return "https://www.nexmark.com/" + nextString(r, 5, '_') + '/' + nextString(r, 5, '_') + '/'
                + nextString(r, 5, '_') + '/' + "item.htm?query=1";
    }

    private static String nextString(SplittableRandom r, int maxLength, char special) {
        int len = MIN_STRING_LENGTH + r.nextInt(maxLength - MIN_STRING_LENGTH);
        StringBuilder sb = new StringBuilder(len);
        while (len-- > 0) {
            if (r.nextInt(13) == 0) {
                sb.append(special);
            } else {
                sb.append((char) ('a' + r.nextInt(26)));
            }
        }
        return sb.toString().trim();
    }

    /** Upstream's fallback of {@code nextExactString} (used to build the pool), signed remainder and all. */
    private static String exactStringFresh(SplittableRandom r, int length) {
        StringBuilder sb = new StringBuilder(length);
        int rnd = 0;
        int n = 0;
        while (length-- > 0) {
            if (n == 0) {
                rnd = r.nextInt();
                n = 6;
            }
            sb.append((char) ('a' + rnd % 26));
            rnd /= 26;
            n--;
        }
        return sb.toString();
    }

    private String nextExactString(int length) {
        if (length < extraPool.length() / 2) {
            int offset = random.nextInt(extraPool.length() - length);
            return extraPool.substring(offset, offset + length);
        }
        return exactStringFresh(random, length);
    }

    private String nextExtra(int currentSize, int desiredAverageSize) {
        if (currentSize > desiredAverageSize) {
            return "";
        }
        desiredAverageSize -= currentSize;
        int delta = (int) Math.round(desiredAverageSize * 0.2);
        int minSize = desiredAverageSize - delta;
        int desiredSize = minSize + (delta == 0 ? 0 : random.nextInt(2 * delta));
        return nextExactString(desiredSize);
    }
}
