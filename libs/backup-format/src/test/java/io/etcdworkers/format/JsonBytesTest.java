package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The byte-level JSON reader on its own, every input fed both whole and one byte per read (so
 * every value also crosses a buffer refill at every position).
 */
class JsonBytesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0                    | 0
            -0                   | 0
            7                    | 7
            -42                  | -42
            9223372036854775807  | 9223372036854775807
            -9223372036854775807 | -9223372036854775807
            """)
    void integersReadAsLongs(String text, long expected) throws IOException {
        for (JsonBytes json : readers(text + " ")) {
            assertThat(json.readNumber()).isTrue();
            assertThat(json.number()).isEqualTo(expected);
            assertThat(json.peekOrEnd()).isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "-0.0", "1e3", "2E-7", "3.25e+10"})
    void fractionsAndExponentsAreNumbersButNotIntegers(String text) throws IOException {
        for (JsonBytes json : readers(text)) {
            assertThat(json.readNumber()).isFalse();
            assertThat(json.peekOrEnd()).isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "01",
                "-",
                "1.",
                ".5",
                "1e",
                "1e+",
                "+1",
                "1x",
                "9223372036854775808",
                "123456789012345678901234567890123",
                "--1",
                "0x10"
            })
    void malformedNumbersAreSyntaxErrors(String text) {
        for (JsonBytes json : readers(text)) {
            assertThatThrownBy(json::readNumber)
                    .as(text)
                    .isInstanceOfAny(JsonInput.SyntaxException.class, JsonInput.EndOfInputException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `"plain"`                 | plain
            `"a\\"b\\\\c\\/d"`        | a"b\\c/d
            `"\\u0041\\u00e9\\u20ac"` | Aé€
            `"\\ud83d\\ude00"`        | 😀
            `"é€😀"`                  | é€😀
            `""`                      | ``
            """)
    void stringsAreUnescapedToTheirUtf8Bytes(String text, String expected) throws IOException {
        for (JsonBytes json : readers(text)) {
            json.readString();
            assertThat(json.textString()).isEqualTo(expected);
            assertThat(json.textIs(expected.getBytes(StandardCharsets.UTF_8))).isTrue();
        }
    }

    @org.junit.jupiter.api.Test
    void controlEscapesBecomeTheirBytes() throws IOException {
        for (JsonBytes json : readers("\"\\b\\f\\n\\r\\t\"")) {
            json.readString();
            assertThat(json.textString()).isEqualTo("\b\f\n\r\t");
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\"\\x\"",
                "\"\\u12g4\"",
                "\"\\ud83d\"",
                "\"\\ud83dx\"",
                "\"\\ude00\"",
                "\"a\tb\"",
                "\"\\ud83d\\u0041\""
            })
    void badEscapesAndControlBytesAreSyntaxErrors(String text) {
        for (JsonBytes json : readers(text)) {
            assertThatThrownBy(json::readString).as(text).isInstanceOf(JsonInput.SyntaxException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"c0 80", "e0 80 80", "ed a0 80", "f5 80 80 80", "80", "c3 28", "f4 90 80 80"})
    void invalidUtf8InsideAStringIsASyntaxError(String hex) {
        byte[] bytes = bytes("\"a", hex, "b\"");
        for (JsonBytes json : readers(bytes)) {
            assertThatThrownBy(json::readString).as(hex).isInstanceOf(JsonInput.SyntaxException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"abc", "\"ab\\", "\"\\u00", "tru", "[1,", "{\"a\":", "-"})
    void inputEndingInsideAValueIsEndOfInput(String text) {
        for (JsonBytes json : readers(text)) {
            assertThatThrownBy(() -> json.skipValue(0)).as(text).isInstanceOf(JsonInput.EndOfInputException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"a\":[1,2.5,{\"b\":null}],\"c\":\"\\u00e9\",\"d\":true,\"e\":false}",
                "[]",
                "{}",
                " [ [ ] , { } ] ",
                "\"s\"",
                "-1e-2"
            })
    void anyValueIsSkippedWhole(String text) throws IOException {
        for (JsonBytes json : readers(text + " ,")) {
            json.skipValue(0);
            assertThat(json.consumeIf(',')).isTrue();
            assertThat(json.peekOrEnd()).isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\" 1}", "{\"a\":1,}", "[1 2]", "{1:2}", "[nul]", "truex", "[1,]", "{'a':1}"})
    void malformedContainersAreSyntaxErrors(String text) {
        for (JsonBytes json : readers(text)) {
            assertThatThrownBy(() -> json.skipValue(0)).as(text).isInstanceOf(JsonInput.SyntaxException.class);
        }
    }

    @org.junit.jupiter.api.Test
    void nestingIsBoundedAtSixteen() throws IOException {
        String ok = "[".repeat(JsonBytes.MAX_DEPTH) + "]".repeat(JsonBytes.MAX_DEPTH);
        for (JsonBytes json : readers(ok)) {
            json.skipValue(0);
        }
        String deep = "[".repeat(JsonBytes.MAX_DEPTH + 1) + "]".repeat(JsonBytes.MAX_DEPTH + 1);
        for (JsonBytes json : readers(deep)) {
            assertThatThrownBy(() -> json.skipValue(0))
                    .isInstanceOf(JsonInput.SyntaxException.class)
                    .hasMessageContaining("nesting");
        }
    }

    @org.junit.jupiter.api.Test
    void base64TextDecodesAndAHugeStringDoesNotStayBuffered() throws IOException {
        byte[] value = new byte[3 << 20];
        new Random(7).nextBytes(value);
        String text = "\"" + Base64.getEncoder().encodeToString(value) + "\" \"YQ==\"";
        for (JsonBytes json : readers(text)) {
            json.readString();
            assertThat(json.textBase64()).isEqualTo(value);
            json.readString();
            assertThat(json.textBase64()).containsExactly('a');
        }
    }

    private static JsonBytes[] readers(String text) {
        return readers(text.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonBytes[] readers(byte[] bytes) {
        return new JsonBytes[] {new JsonBytes(new ByteArrayInputStream(bytes)), new JsonBytes(new Trickle(bytes))};
    }

    private static byte[] bytes(String before, String hex, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        for (String b : hex.split(" ")) {
            out.write(Integer.parseInt(b, 16));
        }
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** One byte per read. */
    static final class Trickle extends InputStream {
        private final byte[] bytes;
        private int at;

        Trickle(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() {
            return at < bytes.length ? bytes[at++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            int c = read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            return 1;
        }
    }
}
