package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Reads the events of a delta one at a time from {@link JsonBytes}, strictly: the type must be
 * the number 0 or 1, {@code kv} must be present with a key and a mod revision, byte fields must
 * be base64, and {@code time} must be an RFC 3339 timestamp. Unknown fields are skipped (a newer
 * sidecar may add some); {@code prev_kv} is ignored.
 */
final class EventReader {
    private static final byte[] ETCD_EVENT = ascii("etcdEvent");
    private static final byte[] TIME = ascii("time");
    private static final byte[] TYPE = ascii("type");
    private static final byte[] KV = ascii("kv");
    private static final byte[] KEY = ascii("key");
    private static final byte[] VALUE = ascii("value");
    private static final byte[] CREATE_REVISION = ascii("create_revision");
    private static final byte[] MOD_REVISION = ascii("mod_revision");
    private static final byte[] VERSION = ascii("version");
    private static final byte[] LEASE = ascii("lease");
    /** The array, the event, {@code etcdEvent}, {@code kv}: how deep a field of each sits. */
    private static final int EVENT_DEPTH = 2;

    private final String objectName;
    private long index;

    EventReader(String objectName) {
        this.objectName = objectName;
    }

    void expectArrayStart(JsonBytes json) throws IOException {
        int c = json.peekOrEnd();
        if (c != '[') {
            throw corrupt("expected a JSON array of events, found " + JsonInput.describe(c), null);
        }
        json.skipPeeked();
    }

    /** The next event, or null at the end of the array (consumed). */
    DeltaEvent next(JsonBytes json) throws IOException {
        if (index > 0 || json.peek() == ']') {
            if (json.consumeIf(']')) {
                return null;
            }
            if (index > 0) {
                json.consume(',');
            }
        }
        Fields event = new Fields();
        int c = json.peek();
        if (!json.readObject(member -> {
            if (member.textIs(ETCD_EVENT)) {
                readEtcdEvent(member, event);
                event.sawEvent = true;
            } else if (member.textIs(TIME)) {
                event.time = readTime(member);
            } else {
                member.skipValue(EVENT_DEPTH);
            }
        })) {
            throw corrupt("expected an event object, found " + JsonInput.describe(c), null);
        }
        if (!event.sawEvent) {
            throw corrupt("event has no etcdEvent", null);
        }
        if (event.time == null) {
            throw corrupt("event has no time", null);
        }
        DeltaEvent result = event.toEvent();
        index++;
        return result;
    }

    private void readEtcdEvent(JsonBytes json, Fields event) throws IOException {
        requireObject(json, "etcdEvent", json.readObject(member -> {
            if (member.textIs(TYPE)) {
                int c = member.peek();
                if (!isNumber(c) || !member.readNumber()) {
                    throw corrupt(
                            "etcdEvent.type must be the number 0 or 1, found "
                                    + (isNumber(c) ? "a fraction" : JsonInput.describe(c)),
                            null);
                }
                long number = member.number();
                if (number != 0 && number != 1) {
                    throw corrupt("etcdEvent.type " + number + " is neither 0 (PUT) nor 1 (DELETE)", null);
                }
                event.type = number == 0 ? EventType.PUT : EventType.DELETE;
            } else if (member.textIs(KV)) {
                readKeyValue(member, event);
                event.sawKv = true;
            } else {
                member.skipValue(EVENT_DEPTH + 1);
            }
        }));
    }

    private void readKeyValue(JsonBytes json, Fields kv) throws IOException {
        requireObject(json, "kv", json.readObject(member -> {
            if (member.textIs(KEY)) {
                kv.key = binary(member, "kv.key");
            } else if (member.textIs(VALUE)) {
                kv.value = binary(member, "kv.value");
            } else if (member.textIs(CREATE_REVISION)) {
                kv.createRevision = number(member, "kv.create_revision");
            } else if (member.textIs(MOD_REVISION)) {
                kv.modRevision = number(member, "kv.mod_revision");
            } else if (member.textIs(VERSION)) {
                kv.version = number(member, "kv.version");
            } else if (member.textIs(LEASE)) {
                kv.lease = number(member, "kv.lease");
            } else {
                member.skipValue(EVENT_DEPTH + 2);
            }
        }));
    }

    /** After {@link JsonBytes#readObject}: false means the value there is no object. */
    private void requireObject(JsonBytes json, String field, boolean read) throws IOException {
        if (!read) {
            throw corrupt(field + " must be an object, found " + JsonInput.describe(json.peek()), null);
        }
    }

    private byte[] binary(JsonBytes json, String field) throws IOException {
        int c = json.peek();
        if (c != '"') {
            throw corrupt(field + " must be a base64 string, found " + JsonInput.describe(c), null);
        }
        json.readString();
        try {
            // Go writes standard base64 with padding and no line breaks; the JDK's decoder also
            // takes it unpadded and refuses whitespace inside, which Go never writes
            return json.textBase64();
        } catch (IllegalArgumentException e) {
            throw corrupt(field + " is not valid base64: " + e.getMessage(), e);
        }
    }

    private long number(JsonBytes json, String field) throws IOException {
        int c = json.peek();
        if (!isNumber(c) || !json.readNumber()) {
            throw corrupt(
                    field + " must be an integer, found " + (isNumber(c) ? "a fraction" : JsonInput.describe(c)), null);
        }
        return json.number();
    }

    private static boolean isNumber(int c) {
        return c == '-' || (c >= '0' && c <= '9');
    }

    private OffsetDateTime readTime(JsonBytes json) throws IOException {
        int c = json.peek();
        if (c != '"') {
            throw corrupt("time must be an RFC 3339 string, found " + JsonInput.describe(c), null);
        }
        json.readString();
        String text = json.textString();
        try {
            return GoTimeFormat.parse(text);
        } catch (DateTimeParseException e) {
            throw corrupt("time \"" + text + "\" is not an RFC 3339 timestamp", e);
        }
    }

    WorkerException corrupt(String what, Throwable cause) {
        return new WorkerException(ErrorCode.CORRUPT_OBJECT, objectName + ": event " + index + ": " + what, cause);
    }

    private static byte[] ascii(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    /** The fields of one event as read so far. */
    private final class Fields {
        boolean sawEvent;
        OffsetDateTime time;
        EventType type = EventType.PUT;
        boolean sawKv;
        byte[] key;
        byte[] value;
        long createRevision;
        long modRevision;
        long version;
        long lease;

        DeltaEvent toEvent() {
            if (!sawKv) {
                throw corrupt("etcdEvent has no kv", null);
            }
            if (key == null || key.length == 0) {
                throw corrupt("kv has no key", null);
            }
            if (modRevision <= 0) {
                throw corrupt("kv has no mod_revision", null);
            }
            if (type == EventType.PUT && (createRevision <= 0 || version <= 0)) {
                throw corrupt("PUT kv needs create_revision and version", null);
            }
            return new DeltaEvent(type, key, value, createRevision, modRevision, version, lease, time);
        }
    }
}
