package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deltas as any JSON writer could lay them out, not only as Go does: whitespace anywhere, fields
 * in any order, unknown fields holding any JSON value, characters written as escapes. Each
 * decodes to exactly the events written; fed one byte per read too. And content changed after
 * the fact (with a trailer that matches it, so the JSON decides) is either rejected as corrupt
 * or truncated, or is JSON that Jackson accepts as well.
 */
@Timeout(60)
class DeltaJsonLayoutTest {
    private static final ObjectMapper JACKSON = JsonMapper.builder().build();

    static {
        JACKSON.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(JsonBytes.MAX_DEPTH)
                        .build());
    }

    @SeededTest(tries = 300)
    void anyLayoutDecodesToTheEventsWritten(SeededCase c) throws Exception {
        Random random = c.random();
        List<DeltaEvent> events = events(random);
        String json = new Layout(random).array(events);
        byte[] content = DeltaBytes.withHash(json);

        try {
            assertThat(decode(new ByteArrayInputStream(content))).as(json).isEqualTo(events);
            assertThat(decode(new JsonBytesTest.Trickle(content))).as(json).isEqualTo(events);
        } catch (WorkerException e) {
            throw new AssertionError(e.getMessage() + " in\n" + json, e);
        }
    }

    @SeededTest(tries = 300)
    void changedContentIsRejectedOrIsJsonJacksonAccepts(SeededCase c) throws InterruptedException {
        assertRejectedOrJacksonAccepts(c.intBetween(1, 4), c.random());
    }

    /** One changed character and the most the random cases change. */
    @ParameterizedTest(name = "{0} changes")
    @ValueSource(ints = {1, 4})
    void theFewestAndTheMostChangesAreRejectedOrJsonJacksonAccepts(int changes) throws InterruptedException {
        for (long seed = 0; seed < 50; seed++) {
            assertRejectedOrJacksonAccepts(changes, new Random(seed));
        }
    }

    private static void assertRejectedOrJacksonAccepts(int changes, Random random) throws InterruptedException {
        byte[] json = new Layout(random).array(events(random)).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < changes; i++) {
            int at = random.nextInt(json.length);
            String alphabet = "{}[]\":,.-0123456789eE\\u tfn\u00e9x";
            json[at] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
        }
        String text = new String(json, StandardCharsets.ISO_8859_1);
        byte[] content = Arrays.copyOf(json, json.length + 32);
        System.arraycopy(DeltaBytes.sha256(json), 0, content, json.length, 32);
        try {
            decode(new ByteArrayInputStream(content));
        } catch (WorkerException e) {
            assertThat(e.code()).isIn(ErrorCode.CORRUPT_OBJECT, ErrorCode.TRUNCATED_OBJECT);
            return;
        }
        try {
            JACKSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError("decoded, but Jackson rejects it: " + e.getMessage() + "\n" + text, e);
        }
    }

    private static List<DeltaEvent> decode(InputStream content) throws InterruptedException {
        List<DeltaEvent> read = new ArrayList<>();
        DeltaDecoder.decode("Incr-layout", content, group -> read.addAll(group.events()));
        return read;
    }

    private static List<DeltaEvent> events(Random random) {
        List<DeltaEvent> events = new ArrayList<>();
        long revision = 1 + random.nextInt(1000);
        int count = random.nextInt(6);
        for (int i = 0; i < count; i++) {
            revision += random.nextInt(3) == 0 ? 0 : 1;
            OffsetDateTime time = OffsetDateTime.parse("2024-05-01T10:20:30Z").plusNanos(random.nextInt(1_000_000_000));
            byte[] key = new byte[1 + random.nextInt(40)];
            random.nextBytes(key);
            if (random.nextInt(4) == 0) {
                events.add(DeltaEvent.delete(key, revision, time));
            } else {
                byte[] value = new byte[random.nextInt(5) == 0 ? 0 : random.nextInt(200)];
                random.nextBytes(value);
                events.add(DeltaEvent.put(
                        key,
                        value,
                        revision - random.nextInt(2),
                        revision,
                        1 + random.nextInt(5),
                        random.nextInt(3) == 0 ? random.nextInt(1 << 30) : 0,
                        time));
            }
        }
        return events;
    }

    /** Writes events as JSON laid out at random. */
    private static final class Layout {
        private final Random random;

        Layout(Random random) {
            this.random = random;
        }

        String array(List<DeltaEvent> events) {
            StringBuilder out = new StringBuilder(ws()).append('[');
            for (int i = 0; i < events.size(); i++) {
                out.append(i == 0 ? "" : ws() + ",").append(ws()).append(event(events.get(i)));
            }
            return out.append(ws()).append(']').append(ws()).toString();
        }

        private String event(DeltaEvent e) {
            List<String> kv = new ArrayList<>();
            kv.add(field("key", string(Base64.getEncoder().encodeToString(e.key()))));
            kv.add(field("mod_revision", Long.toString(e.modRevision())));
            if (e.type() == EventType.PUT) {
                if (e.value().length > 0 || random.nextBoolean()) {
                    kv.add(field("value", string(Base64.getEncoder().encodeToString(e.value()))));
                }
                kv.add(field("create_revision", Long.toString(e.createRevision())));
                kv.add(field("version", Long.toString(e.version())));
            }
            if (e.lease() != 0 || random.nextBoolean()) {
                kv.add(field("lease", Long.toString(e.lease())));
            }
            List<String> etcdEvent = new ArrayList<>();
            if (e.type() == EventType.DELETE || random.nextBoolean()) {
                etcdEvent.add(field("type", e.type() == EventType.PUT ? "0" : "1"));
            }
            etcdEvent.add(field("kv", object(kv)));
            if (random.nextBoolean()) {
                etcdEvent.add(field("prev_kv", object(List.of(field("key", string("YQ==")), field("x", any(4))))));
            }
            List<String> event = new ArrayList<>();
            event.add(field("etcdEvent", object(etcdEvent)));
            event.add(field("time", string(GoTimeFormat.format(e.time()))));
            return object(event);
        }

        private String object(List<String> fields) {
            List<String> all = new ArrayList<>(fields);
            for (int i = random.nextInt(3); i > 0; i--) {
                all.add(field("unknown" + random.nextInt(9), any(5)));
            }
            Collections.shuffle(all, random);
            return "{" + ws() + String.join(ws() + "," + ws(), all) + ws() + "}";
        }

        private String field(String name, String value) {
            return string(name) + ws() + ":" + ws() + value;
        }

        /** Any JSON value, nested at most {@code depth} more levels. */
        private String any(int depth) {
            switch (random.nextInt(depth > 0 ? 8 : 6)) {
                case 0:
                    return string("s\u00e9\u20ac\ud83d\ude00\"\\/" + random.nextInt(100));
                case 1:
                    return Long.toString(random.nextLong());
                case 2:
                    return random.nextInt(100) + "." + random.nextInt(100) + (random.nextBoolean() ? "e-3" : "");
                case 3:
                    return "true";
                case 4:
                    return "false";
                case 5:
                    return "null";
                case 6: {
                    List<String> items = new ArrayList<>();
                    for (int i = random.nextInt(3); i > 0; i--) {
                        items.add(any(depth - 1));
                    }
                    return "[" + ws() + String.join(ws() + "," + ws(), items) + ws() + "]";
                }
                default: {
                    List<String> items = new ArrayList<>();
                    for (int i = random.nextInt(3); i > 0; i--) {
                        items.add(field("f" + i, any(depth - 1)));
                    }
                    return "{" + ws() + String.join(ws() + "," + ws(), items) + ws() + "}";
                }
            }
        }

        /** A JSON string of {@code text}, some characters escaped at random. */
        private String string(String text) {
            StringBuilder out = new StringBuilder("\"");
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                // a surrogate pair is escaped as a pair or not at all
                int units = Character.isHighSurrogate(c) ? 2 : 1;
                boolean mustEscape = c == '"' || c == '\\';
                if (mustEscape || random.nextInt(12) == 0) {
                    for (int u = 0; u < units; u++) {
                        char unit = text.charAt(i + u);
                        out.append(unit == '/' && random.nextBoolean() ? "\\/" : String.format("\\u%04x", (int) unit));
                    }
                } else {
                    out.append(text, i, i + units);
                }
                i += units - 1;
            }
            return out.append('"').toString();
        }

        private String ws() {
            return switch (random.nextInt(6)) {
                case 0 -> " ";
                case 1 -> "\n\t ";
                case 2 -> "\r\n";
                default -> "";
            };
        }
    }
}
