package io.etcdworkers.workercli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import org.slf4j.event.KeyValuePair;

/**
 * {@code --log-format json}: one JSON object per line, {@code timestamp} (RFC 3339, UTC),
 * {@code level}, {@code loggerName}, {@code threadName}, {@code formattedMessage}, {@code throwable}
 * (the stack trace as text, when there is one), and each key-value pair of the event (SLF4J's
 * {@code addKeyValue}) as a field of its own at the top level: numbers as JSON numbers, booleans as
 * booleans, anything else as its string. A key that is one of these field names is written as
 * {@code kv.<key>} so that it never hides them.
 */
public final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {
    static final Set<String> FIELDS =
            Set.of("timestamp", "level", "loggerName", "threadName", "formattedMessage", "throwable");
    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] NO_BYTES = {};

    @Override
    public byte[] headerBytes() {
        return NO_BYTES;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("timestamp", event.getInstant().toString());
            json.writeStringField("level", event.getLevel().toString());
            json.writeStringField("loggerName", event.getLoggerName());
            json.writeStringField("threadName", event.getThreadName());
            json.writeStringField("formattedMessage", event.getFormattedMessage());
            if (event.getThrowableProxy() != null) {
                json.writeStringField("throwable", ThrowableProxyUtil.asString(event.getThrowableProxy()));
            }
            writeKeyValues(json, event.getKeyValuePairs());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a log line as JSON", e);
        }
        out.write('\n');
        return out.toByteArray();
    }

    @Override
    public byte[] footerBytes() {
        return NO_BYTES;
    }

    private static void writeKeyValues(JsonGenerator json, List<KeyValuePair> pairs) throws IOException {
        if (pairs == null) {
            return;
        }
        for (KeyValuePair pair : pairs) {
            json.writeFieldName(FIELDS.contains(pair.key) ? "kv." + pair.key : pair.key);
            writeValue(json, pair.value);
        }
    }

    private static void writeValue(JsonGenerator json, Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof Boolean b) {
            json.writeBoolean(b);
        } else if (value instanceof Integer
                || value instanceof Long
                || value instanceof Short
                || value instanceof Byte) {
            json.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigInteger big) {
            json.writeNumber(big);
        } else if (value instanceof BigDecimal big) {
            json.writeNumber(big);
        } else if ((value instanceof Double || value instanceof Float)
                && Double.isFinite(((Number) value).doubleValue())) {
            json.writeNumber(((Number) value).doubleValue());
        } else {
            json.writeString(String.valueOf(value));
        }
    }
}
