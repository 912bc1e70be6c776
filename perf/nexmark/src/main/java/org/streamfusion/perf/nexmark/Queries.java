package org.streamfusion.perf.nexmark;

import java.util.List;
import java.util.Locale;

/**
 * Nexmark q0, q9 and q19 as Flink SQL, from upstream nexmark-flink ({@code queries/ddl_kafka.sql},
 * {@code ddl_views.sql}, {@code q0.sql}, {@code q9.sql}, {@code q19.sql}), with the {@code blackhole} sinks
 * replaced by Kafka tables and the source table reading the corpus to its end.
 *
 * <p>Source: upstream's {@code kafka} table (columns {@code event_type, person, auction, bid}, computed
 * {@code dateTime}, {@code WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND}) with Flink's stock
 * {@code kafka} connector and {@code json} format, {@code scan.startup.mode = earliest-offset},
 * {@code scan.bounded.mode = latest-offset} (the job ends when the corpus is consumed) and
 * {@code properties.max.poll.records = 8192}. Sinks: q0 appends to {@code kafka} / {@code streamfusion-kafka}
 * ({@code format = json}, no key, as upstream's q0 table has none); q9 and q19 write to {@code upsert-kafka} /
 * {@code streamfusion-upsert-kafka} ({@code key.format} and {@code value.format} {@code json}) with the result's
 * upsert key as PRIMARY KEY (q9 {@code id}; q19 {@code auction, rank_number}), so the planner adds no
 * {@code SinkUpsertMaterializer}. Both sides: exactly once with a transactional-id prefix per run, producer
 * {@code batch.size = 524288} and {@code linger.ms = 20}; every other option equal.
 */
public final class Queries {
    /** The source table's name (upstream's {@code ${NEXMARK_TABLE}}). */
    public static final String SOURCE_TABLE = "nexmark_kafka";

    /** The source table's physical columns, upstream {@code ddl_kafka.sql}'s, as SQL. */
    static final List<String> PHYSICAL_COLUMNS = List.of(
            "event_type INT",
            "person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR,"
                    + " state VARCHAR, `dateTime` TIMESTAMP(3), extra VARCHAR>",
            "auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,"
                    + " `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT,"
                    + " extra VARCHAR>",
            "bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,"
                    + " `dateTime` TIMESTAMP(3), extra VARCHAR>");

    /** The computed {@code dateTime} column: the event's time, whichever kind it is. */
    static final String DATE_TIME = "CASE WHEN event_type = 0 THEN person.`dateTime`"
            + " WHEN event_type = 1 THEN auction.`dateTime` ELSE bid.`dateTime` END";

    /** Upstream's watermark on {@code dateTime}. */
    static final String WATERMARK = "`dateTime` - INTERVAL '4' SECOND";

    private Queries() {}

    /** A query of this harness. */
    public enum Query {
        /** Pass-through of every bid; append only. */
        Q0(
                "auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3), extra VARCHAR",
                null,
                "SELECT auction, bidder, price, `dateTime`, extra FROM bid"),
        /** Each auction's winning bid; upsert by {@code id}. */
        Q9(
                "id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,"
                        + " `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR,"
                        + " auction BIGINT, bidder BIGINT, price BIGINT, bid_dateTime TIMESTAMP(3), bid_extra VARCHAR",
                "id",
                "SELECT\n"
                        + "    id, itemName, description, initialBid, reserve, `dateTime`, expires, seller, category,"
                        + " extra,\n"
                        + "    auction, bidder, price, bid_dateTime, bid_extra\n"
                        + "FROM (\n"
                        + "   SELECT A.*, B.auction, B.bidder, B.price, B.`dateTime` AS bid_dateTime,"
                        + " B.extra AS bid_extra,\n"
                        + "     ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.`dateTime` ASC)"
                        + " AS rownum\n"
                        + "   FROM auction A, bid B\n"
                        + "   WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires\n"
                        + ")\n"
                        + "WHERE rownum <= 1"),
        /** Each auction's top 10 bids by price; upsert by {@code (auction, rank_number)}. */
        Q19(
                "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3),"
                        + " extra VARCHAR, rank_number BIGINT",
                "auction, rank_number",
                "SELECT * FROM\n"
                        + "(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number"
                        + " FROM bid)\n"
                        + "WHERE rank_number <= 10");

        private final String columns;
        private final String primaryKey;
        private final String select;

        Query(String columns, String primaryKey, String select) {
            this.columns = columns;
            this.primaryKey = primaryKey;
            this.select = select;
        }

        /** The sink table's columns (upstream's {@code nexmark_qN} table). */
        public String columns() {
            return columns;
        }

        /** The PRIMARY KEY columns, or null for the append-only q0. */
        public String primaryKey() {
            return primaryKey;
        }

        /** Whether the result is an upsert stream. */
        public boolean upsert() {
            return primaryKey != null;
        }

        /** Upstream's query, without its {@code INSERT INTO} line. */
        public String select() {
            return select;
        }

        /** The lower-case name, {@code q0}, {@code q9}, {@code q19}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The stock connector of this query's sink: {@code kafka} or {@code upsert-kafka}. */
        public String stockConnector() {
            return upsert() ? "upsert-kafka" : "kafka";
        }

        /** Our connector of this query's sink: {@code streamfusion-kafka} or {@code streamfusion-upsert-kafka}. */
        public String oursConnector() {
            return "streamfusion-" + stockConnector();
        }

        /**
         * The query named {@code q0}, {@code q9} or {@code q19} (any case).
         *
         * @throws IllegalArgumentException for another name
         */
        public static Query of(String name) {
            for (Query q : values()) {
                if (q.id().equalsIgnoreCase(name)) {
                    return q;
                }
            }
            throw new IllegalArgumentException("unknown query " + name + ": q0, q9 or q19");
        }
    }

    /**
     * The source table over the corpus topic (upstream {@code ddl_kafka.sql}, bounded at the latest offsets).
     *
     * @param ours {@code streamfusion-kafka} when true, the stock {@code kafka} connector when false
     * @param topic the corpus topic
     * @param bootstrap the broker
     * @param groupId the consumer group (one per run; offsets are not what bounds the read)
     */
    public static String sourceDdl(boolean ours, String topic, String bootstrap, String groupId) {
        return "CREATE TEMPORARY TABLE " + SOURCE_TABLE + " (\n"
                + "    " + String.join(",\n    ", PHYSICAL_COLUMNS) + ",\n"
                + "    `dateTime` AS " + DATE_TIME + ",\n"
                + "    WATERMARK FOR `dateTime` AS " + WATERMARK + "\n"
                + ") WITH (\n"
                + "    'connector' = '" + (ours ? "streamfusion-kafka" : "kafka") + "',\n"
                + "    'topic' = '" + topic + "',\n"
                + "    'properties.bootstrap.servers' = '" + bootstrap + "',\n"
                + "    'properties.group.id' = '" + groupId + "',\n"
                + "    'properties.max.poll.records' = '8192',\n"
                + "    'scan.startup.mode' = 'earliest-offset',\n"
                + "    'scan.bounded.mode' = 'latest-offset',\n"
                + "    'format' = 'json'\n"
                + ")";
    }

    /** Upstream {@code ddl_views.sql}: the {@code person}, {@code auction} and {@code bid} views. */
    public static List<String> viewDdls() {
        return List.of(
                "CREATE TEMPORARY VIEW person AS SELECT person.id, person.name, person.emailAddress,"
                        + " person.creditCard, person.city, person.state, `dateTime`, person.extra FROM "
                        + SOURCE_TABLE + " WHERE event_type = 0",
                "CREATE TEMPORARY VIEW auction AS SELECT auction.id, auction.itemName, auction.description,"
                        + " auction.initialBid, auction.reserve, `dateTime`, auction.expires, auction.seller,"
                        + " auction.category, auction.extra FROM " + SOURCE_TABLE + " WHERE event_type = 1",
                "CREATE TEMPORARY VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url,"
                        + " `dateTime`, bid.extra FROM " + SOURCE_TABLE + " WHERE event_type = 2");
    }

    /**
     * The sink table {@code nexmark_qN} of {@code query}.
     *
     * @param query the query
     * @param ours {@code streamfusion-*} when true, the stock connector when false
     * @param topic the output topic
     * @param bootstrap the broker
     * @param transactionalIdPrefix unique per sink and run (Flink's committer is keyed by it)
     */
    public static String sinkDdl(
            Query query, boolean ours, String topic, String bootstrap, String transactionalIdPrefix) {
        String connector = ours ? query.oursConnector() : query.stockConnector();
        String formats = query.upsert()
                ? "    'key.format' = 'json',\n    'value.format' = 'json',\n"
                : "    'format' = 'json',\n";
        String key = query.upsert() ? ",\n    PRIMARY KEY (" + query.primaryKey() + ") NOT ENFORCED" : "";
        return "CREATE TEMPORARY TABLE nexmark_" + query.id() + " (\n    " + query.columns() + key + "\n) WITH (\n"
                + "    'connector' = '" + connector + "',\n"
                + "    'topic' = '" + topic + "',\n"
                + "    'properties.bootstrap.servers' = '" + bootstrap + "',\n"
                + formats
                + "    'sink.delivery-guarantee' = 'exactly-once',\n"
                + "    'sink.transactional-id-prefix' = '" + transactionalIdPrefix + "',\n"
                + "    'properties.batch.size' = '524288',\n"
                + "    'properties.linger.ms' = '20'\n"
                + ")";
    }

    /** {@code INSERT INTO nexmark_qN} + the query. */
    public static String insert(Query query) {
        return "INSERT INTO nexmark_" + query.id() + "\n" + query.select();
    }
}
