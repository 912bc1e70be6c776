package org.streamfusion.perf.nexmark;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * A Nexmark event as one JSON record in the shape upstream nexmark-flink writes its corpus: its
 * {@code insert_kafka.sql} inserts {@code SELECT event_type, person, auction, bid FROM datagen} into the
 * {@code kafka} table of {@code ddl_kafka.sql} with {@code 'format' = 'json'}, so a record is Flink's
 * {@code json} format of the row {@code (event_type INT, person ROW<id, name, emailAddress, creditCard, city,
 * state, dateTime, extra>, auction ROW<id, itemName, description, initialBid, reserve, dateTime, expires,
 * seller, category, extra>, bid ROW<auction, bidder, price, channel, url, dateTime, extra>)}: the fields in
 * that order, the two rows the event is not as {@code null}, {@code TIMESTAMP(3)} values as Flink's json
 * format writes them by default ({@code timestamp-format.standard = SQL}: {@code yyyy-MM-dd HH:mm:ss} and the
 * fraction without trailing zeros, UTC as upstream's {@code TimestampData.fromInstant}). For example
 * {@code {"event_type":2,"person":null,"auction":null,"bid":{"auction":1000,"bidder":2001,"price":1942,
 * "channel":"Google","url":"https://...","dateTime":"2026-01-01 00:00:00.001","extra":"..."}}}.
 */
public final class NexmarkJson {
    /** Flink json's {@code SQL_TIMESTAMP_FORMAT} ({@code org.apache.flink.formats.common.TimeFormats}). */
    static final DateTimeFormatter SQL_TIMESTAMP_FORMAT = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ')
            .appendPattern("HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .toFormatter();

    private NexmarkJson() {}

    /** The event's JSON record (UTF-8 text, no line break). */
    public static String toJson(NexmarkGenerator.Event event) {
        StringBuilder sb = new StringBuilder(event.type() == NexmarkGenerator.Type.BID ? 256 : 640);
        sb.append("{\"event_type\":").append(event.type().ordinal()).append(",\"person\":");
        NexmarkGenerator.Person p = event.person();
        if (p == null) {
            sb.append("null");
        } else {
            sb.append("{\"id\":").append(p.id());
            str(sb, "name", p.name());
            str(sb, "emailAddress", p.emailAddress());
            str(sb, "creditCard", p.creditCard());
            str(sb, "city", p.city());
            str(sb, "state", p.state());
            ts(sb, "dateTime", p.dateTime());
            str(sb, "extra", p.extra());
            sb.append('}');
        }
        sb.append(",\"auction\":");
        NexmarkGenerator.Auction a = event.auction();
        if (a == null) {
            sb.append("null");
        } else {
            sb.append("{\"id\":").append(a.id());
            str(sb, "itemName", a.itemName());
            str(sb, "description", a.description());
            sb.append(",\"initialBid\":").append(a.initialBid());
            sb.append(",\"reserve\":").append(a.reserve());
            ts(sb, "dateTime", a.dateTime());
            ts(sb, "expires", a.expires());
            sb.append(",\"seller\":").append(a.seller());
            sb.append(",\"category\":").append(a.category());
            str(sb, "extra", a.extra());
            sb.append('}');
        }
        sb.append(",\"bid\":");
        NexmarkGenerator.Bid b = event.bid();
        if (b == null) {
            sb.append("null");
        } else {
            sb.append("{\"auction\":").append(b.auction());
            sb.append(",\"bidder\":").append(b.bidder());
            sb.append(",\"price\":").append(b.price());
            str(sb, "channel", b.channel());
            str(sb, "url", b.url());
            ts(sb, "dateTime", b.dateTime());
            str(sb, "extra", b.extra());
            sb.append('}');
        }
        return sb.append('}').toString();
    }

    /** Unix milliseconds as Flink json writes a {@code TIMESTAMP(3)} holding that UTC instant. */
    public static String timestamp(long epochMillis) {
        return SQL_TIMESTAMP_FORMAT.format(LocalDateTime.ofEpochSecond(
                Math.floorDiv(epochMillis, 1000L),
                (int) Math.floorMod(epochMillis, 1000L) * 1_000_000,
                ZoneOffset.UTC));
    }

    private static void ts(StringBuilder sb, String name, long millis) {
        sb.append(",\"").append(name).append("\":\"").append(timestamp(millis)).append('"');
    }

    private static void str(StringBuilder sb, String name, String value) {
        sb.append(",\"").append(name).append("\":\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }
}
