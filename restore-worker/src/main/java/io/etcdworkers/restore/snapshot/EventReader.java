package io.etcdworkers.restore.snapshot;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
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
            throw corrupt("expected a JSON array of events, found " + JsonBytes.describe(c), null);
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
        int c = json.peek();
        if (c != '{') {
            throw corrupt("expected an event object, found " + JsonBytes.describe(c), null);
        }
        json.skipPeeked();
        Fields event = new Fields();
        OffsetDateTime time = null;
        boolean sawEvent = false;
        if (!json.consumeIf('}')) {
            do {
                json.readString();
                json.consume(':');
                if (json.textIs(ETCD_EVENT)) {
                    readEtcdEvent(json, event);
                    sawEvent = true;
                } else if (json.textIs(TIME)) {
                    time = readTime(json);
                } else {
                    json.skipValue(EVENT_DEPTH);
                }
            } while (json.consumeIf(','));
            json.consume('}');
        }
        if (!sawEvent) {
            throw corrupt("event has no etcdEvent", null);
        }
        if (time == null) {
            throw corrupt("event has no time", null);
        }
        DeltaEvent result = event.toEvent(time);
        index++;
        return result;
    }

    private void readEtcdEvent(JsonBytes json, Fields event) throws IOException {
        if (startObject(json, "etcdEvent")) {
            return;
        }
        do {
            json.readString();
            json.consume(':');
            if (json.textIs(TYPE)) {
                int c = json.peek();
                if (!isNumber(c) || !json.readNumber()) {
                    throw corrupt("etcdEvent.type must be the number 0 or 1, found "
                            + (isNumber(c) ? "a fraction" : JsonBytes.describe(c)), null);
                }
                long number = json.number();
                if (number != 0 && number != 1) {
                    throw corrupt("etcdEvent.type " + number + " is neither 0 (PUT) nor 1 (DELETE)", null);
                }
                event.type = number == 0 ? EventType.PUT : EventType.DELETE;
            } else if (json.textIs(KV)) {
                readKeyValue(json, event);
                event.sawKv = true;
            } else {
                json.skipValue(EVENT_DEPTH + 1);
            }
        } while (json.consumeIf(','));
        json.consume('}');
    }

    private void readKeyValue(JsonBytes json, Fields kv) throws IOException {
        if (startObject(json, "kv")) {
            return;
        }
        do {
            json.readString();
            json.consume(':');
            if (json.textIs(KEY)) {
                kv.key = binary(json, "kv.key");
            } else if (json.textIs(VALUE)) {
                kv.value = binary(json, "kv.value");
            } else if (json.textIs(CREATE_REVISION)) {
                kv.createRevision = number(json, "kv.create_revision");
            } else if (json.textIs(MOD_REVISION)) {
                kv.modRevision = number(json, "kv.mod_revision");
            } else if (json.textIs(VERSION)) {
                kv.version = number(json, "kv.version");
            } else if (json.textIs(LEASE)) {
                kv.lease = number(json, "kv.lease");
            } else {
                json.skipValue(EVENT_DEPTH + 2);
            }
        } while (json.consumeIf(','));
        json.consume('}');
    }

    /** Consumes the object's '{'; true when it is empty (its '}' consumed too). */
    private boolean startObject(JsonBytes json, String field) throws IOException {
        int c = json.peek();
        if (c != '{') {
            throw corrupt(field + " must be an object, found " + JsonBytes.describe(c), null);
        }
        json.skipPeeked();
        return json.consumeIf('}');
    }

    private byte[] binary(JsonBytes json, String field) throws IOException {
        int c = json.peek();
        if (c != '"') {
            throw corrupt(field + " must be a base64 string, found " + JsonBytes.describe(c), null);
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
            throw corrupt(field + " must be an integer, found " + (isNumber(c) ? "a fraction" : JsonBytes.describe(c)),
                    null);
        }
        return json.number();
    }

    private static boolean isNumber(int c) {
        return c == '-' || (c >= '0' && c <= '9');
    }

    private OffsetDateTime readTime(JsonBytes json) throws IOException {
        int c = json.peek();
        if (c != '"') {
            throw corrupt("time must be an RFC 3339 string, found " + JsonBytes.describe(c), null);
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
        EventType type = EventType.PUT;
        boolean sawKv;
        byte[] key;
        byte[] value;
        long createRevision;
        long modRevision;
        long version;
        long lease;

        DeltaEvent toEvent(OffsetDateTime time) {
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
