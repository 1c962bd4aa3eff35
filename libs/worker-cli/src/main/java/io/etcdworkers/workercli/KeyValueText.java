package io.etcdworkers.workercli;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.List;
import org.slf4j.event.KeyValuePair;

/**
 * The text line's rendering of an event's key-value pairs (SLF4J's {@code addKeyValue}), after the
 * message: {@code " revision=12 phase=select"}, nothing when there are none. A value that is empty or
 * holds a space, a quote, a backslash or an equals sign is quoted, so each pair reads back whole.
 */
public final class KeyValueText extends ClassicConverter {

    @Override
    public String convert(ILoggingEvent event) {
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs == null || pairs.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        for (KeyValuePair pair : pairs) {
            text.append(' ').append(pair.key).append('=').append(readable(String.valueOf(pair.value)));
        }
        return text.toString();
    }

    static String readable(String value) {
        if (!value.isEmpty()
                && value.chars().noneMatch(c -> Character.isWhitespace(c) || c == '"' || c == '\\' || c == '=')) {
            return value;
        }
        StringBuilder quoted = new StringBuilder("\"");
        value.chars().forEach(c -> {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> quoted.append((char) c);
            }
        });
        return quoted.append('"').toString();
    }
}
