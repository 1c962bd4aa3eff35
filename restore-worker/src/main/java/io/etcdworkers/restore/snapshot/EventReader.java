package io.etcdworkers.restore.snapshot;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * Reads the events of a delta one at a time from a streaming JSON parser, strictly: the type
 * must be the number 0 or 1, {@code kv} must be present with a key and a mod revision, byte
 * fields must be base64, and {@code time} must be an RFC 3339 timestamp. Unknown fields are
 * skipped (a newer sidecar may add some); {@code prev_kv} is ignored.
 */
final class EventReader {
    private static final Base64.Decoder BASE64 = Base64.getDecoder();

    private final String objectName;
    private long index;

    EventReader(String objectName) {
        this.objectName = objectName;
    }

    void expectArrayStart(JsonParser parser) throws IOException {
        JsonToken token = parser.nextToken();
        if (token != JsonToken.START_ARRAY) {
            throw corrupt("expected a JSON array of events, found " + describe(token), null);
        }
    }

    /** The next event, or null at the end of the array. */
    DeltaEvent next(JsonParser parser) throws IOException {
        JsonToken token = parser.nextToken();
        if (token == JsonToken.END_ARRAY) {
            return null;
        }
        if (token != JsonToken.START_OBJECT) {
            throw corrupt("expected an event object, found " + describe(token), null);
        }
        Fields event = new Fields();
        OffsetDateTime time = null;
        boolean sawEvent = false;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "etcdEvent" -> {
                    readEtcdEvent(parser, event);
                    sawEvent = true;
                }
                case "time" -> time = readTime(parser);
                default -> parser.skipChildren();
            }
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

    private void readEtcdEvent(JsonParser parser, Fields event) throws IOException {
        requireObject(parser, "etcdEvent");
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "type" -> {
                    if (value != JsonToken.VALUE_NUMBER_INT) {
                        throw corrupt("etcdEvent.type must be the number 0 or 1, found " + describe(value), null);
                    }
                    long number = parser.getLongValue();
                    if (number != 0 && number != 1) {
                        throw corrupt("etcdEvent.type " + number + " is neither 0 (PUT) nor 1 (DELETE)", null);
                    }
                    event.type = number == 0 ? EventType.PUT : EventType.DELETE;
                }
                case "kv" -> {
                    readKeyValue(parser, event);
                    event.sawKv = true;
                }
                default -> parser.skipChildren();
            }
        }
    }

    private void readKeyValue(JsonParser parser, Fields kv) throws IOException {
        requireObject(parser, "kv");
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "key" -> kv.key = binary(parser, value, "kv.key");
                case "value" -> kv.value = binary(parser, value, "kv.value");
                case "create_revision" -> kv.createRevision = number(parser, value, "kv.create_revision");
                case "mod_revision" -> kv.modRevision = number(parser, value, "kv.mod_revision");
                case "version" -> kv.version = number(parser, value, "kv.version");
                case "lease" -> kv.lease = number(parser, value, "kv.lease");
                default -> parser.skipChildren();
            }
        }
    }

    private byte[] binary(JsonParser parser, JsonToken token, String field) throws IOException {
        if (token != JsonToken.VALUE_STRING) {
            throw corrupt(field + " must be a base64 string, found " + describe(token), null);
        }
        try {
            // the JDK's decoder, not Jackson's getBinaryValue(): that one decodes char by char and
            // was half of the fetch threads' CPU (measured at 300,000 events). Go writes standard
            // base64 with padding and no line breaks, which both decode alike; the JDK's also takes
            // it unpadded and refuses whitespace inside, which Go never writes
            return BASE64.decode(parser.getText());
        } catch (JsonEOFException e) {
            throw e;
        } catch (IOException | IllegalArgumentException e) {
            throw corrupt(field + " is not valid base64: " + e.getMessage(), e);
        }
    }

    private long number(JsonParser parser, JsonToken token, String field) throws IOException {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            throw corrupt(field + " must be an integer, found " + describe(token), null);
        }
        return parser.getLongValue();
    }

    private OffsetDateTime readTime(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.VALUE_STRING) {
            throw corrupt("time must be an RFC 3339 string, found " + describe(parser.currentToken()), null);
        }
        String text = parser.getText();
        try {
            return GoTimeFormat.parse(text);
        } catch (DateTimeParseException e) {
            throw corrupt("time \"" + text + "\" is not an RFC 3339 timestamp", e);
        }
    }

    private void requireObject(JsonParser parser, String field) {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw corrupt(field + " must be an object, found " + describe(parser.currentToken()), null);
        }
    }

    WorkerException corrupt(String what, Throwable cause) {
        return new WorkerException(ErrorCode.CORRUPT_OBJECT, objectName + ": event " + index + ": " + what, cause);
    }

    private static String describe(JsonToken token) {
        return token == null ? "end of input" : token.asString() == null ? token.name() : "'" + token.asString() + "'";
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
