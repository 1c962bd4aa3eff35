package io.etcdworkers.restore.snapshot;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A strict reader of one JSON document over UTF-8 bytes, with what a delta's event array needs:
 * look at the next value's first byte, consume punctuation, read a string, a number or a base64
 * string, skip any value. RFC 8259's grammar, no extensions; strings must be valid UTF-8 and
 * nesting at most {@link #MAX_DEPTH} deep.
 *
 * <p>A string is read as its bytes, unescaped, into a buffer reused for every string: a base64
 * value goes from the decompressed input to the JDK's decoder with one copy. Jackson built its
 * text char by char, then a {@code String}, then that string's bytes for the decoder: a third of
 * the fetch threads' CPU after decompression (measured at 300,000 events of 3 KB values).
 */
final class JsonBytes {
    /** The deepest nesting of objects and arrays read or skipped. */
    static final int MAX_DEPTH = 16;
    /** Digits and signs of a number, at most (as the Jackson parser before this was configured). */
    private static final int MAX_NUMBER_LENGTH = 32;
    /** A string buffer grown past this is dropped after use, not kept for the next string. */
    private static final int KEPT_TEXT_BYTES = 1 << 20;
    private static final Base64.Decoder BASE64 = Base64.getDecoder();

    /** The input is not JSON (as opposed to ending early). */
    static final class SyntaxException extends IOException {
        private static final long serialVersionUID = 1L;

        SyntaxException(String message) {
            super(message);
        }
    }

    /** The input ended inside the document. */
    static final class EndOfInputException extends IOException {
        private static final long serialVersionUID = 1L;

        EndOfInputException(String message) {
            super(message);
        }
    }

    private final InputStream in;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int end;
    private long before;
    private byte[] text = new byte[4096];
    private int textLength;
    private long number;

    JsonBytes(InputStream in) {
        this.in = in;
    }

    /** The next byte that is not whitespace, not consumed, or -1 at the end of the input. */
    int peekOrEnd() throws IOException {
        while (true) {
            if (pos == end && !fill()) {
                return -1;
            }
            int c = buf[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return c & 0xff;
            }
            pos++;
        }
    }

    /** The next byte that is not whitespace, not consumed; the input must not end here. */
    int peek() throws IOException {
        int c = peekOrEnd();
        if (c < 0) {
            throw new EndOfInputException("input ends at byte " + offset());
        }
        return c;
    }

    /** Consumes the byte {@link #peek} returned. */
    void skipPeeked() {
        pos++;
    }

    /** Consumes {@code expected}, the next byte that is not whitespace. */
    void consume(char expected) throws IOException {
        int c = peek();
        if (c != expected) {
            throw syntax("expected '" + expected + "', found " + describe(c));
        }
        pos++;
    }

    /** Consumes {@code expected} when it is the next byte that is not whitespace. */
    boolean consumeIf(char expected) throws IOException {
        if (peek() != expected) {
            return false;
        }
        pos++;
        return true;
    }

    /** How a value starting with {@code c} (a {@link #peek} result) is named in messages. */
    static String describe(int c) {
        if (c < 0) {
            return "end of input";
        }
        if (c == '"') {
            return "a string";
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return "a number";
        }
        return switch (c) {
            case 't' -> "'true'";
            case 'f' -> "'false'";
            case 'n' -> "'null'";
            default -> c >= 0x20 && c < 0x7f ? "'" + (char) c + "'" : String.format("byte 0x%02x", c);
        };
    }

    /** Reads the string that comes next into the text buffer ({@link #textIs}, {@link #textString}). */
    void readString() throws IOException {
        consume('"');
        textLength = 0;
        if (text.length > KEPT_TEXT_BYTES) {
            text = new byte[4096];
        }
        while (true) {
            if (pos == end && !fill()) {
                throw new EndOfInputException("input ends inside a string at byte " + offset());
            }
            byte[] b = buf;
            int i = pos;
            int e = end;
            while (i < e) {
                int c = b[i];
                // one test for '"', '\' and control bytes; bytes >= 0x80 are negative and stop too
                if (c < 0x20 || c == '"' || c == '\\') {
                    break;
                }
                i++;
            }
            append(b, pos, i - pos);
            pos = i;
            if (i == e) {
                continue;
            }
            int c = b[i] & 0xff;
            pos++;
            if (c == '"') {
                return;
            }
            if (c == '\\') {
                escape();
            } else if (c < 0x20) {
                throw syntax(String.format("control byte 0x%02x inside a string", c));
            } else {
                utf8(c);
            }
        }
    }

    /** Whether the string last read is exactly {@code name}'s bytes. */
    boolean textIs(byte[] name) {
        return Arrays.equals(text, 0, textLength, name, 0, name.length);
    }

    String textString() {
        return new String(text, 0, textLength, StandardCharsets.UTF_8);
    }

    /**
     * The string last read, decoded as standard base64 (padding optional).
     *
     * @throws IllegalArgumentException when it is not base64
     */
    byte[] textBase64() {
        ByteBuffer decoded = BASE64.decode(ByteBuffer.wrap(text, 0, textLength));
        byte[] array = decoded.array();
        return decoded.remaining() == array.length ? array : Arrays.copyOf(array, decoded.remaining());
    }

    /**
     * Reads the number that comes next.
     *
     * @return whether it is an integer (then {@link #number()} is its value), not a fraction or
     *     an exponent form
     */
    boolean readNumber() throws IOException {
        int length = 0;
        boolean negative = false;
        boolean integral = true;
        long value = 0;
        int c = peek();
        if (c == '-') {
            negative = true;
            pos++;
            length++;
            c = nextByte();
        }
        if (c < '0' || c > '9') {
            throw syntax("expected a digit, found " + describe(c));
        }
        int count = 0;
        boolean overflow = false;
        while (c >= '0' && c <= '9') {
            if (count == 1 && value == 0) {
                throw syntax("a number with a leading zero");
            }
            int digit = c - '0';
            overflow |= value > (Long.MAX_VALUE - digit) / 10;
            value = value * 10 + digit;
            count++;
            length++;
            pos++;
            c = nextOrEnd();
        }
        if (c == '.') {
            integral = false;
            pos++;
            length = digits(length + 1, "'.'");
            c = nextOrEnd();
        }
        if (c == 'e' || c == 'E') {
            integral = false;
            pos++;
            length++;
            c = nextByte();
            if (c == '+' || c == '-') {
                pos++;
                length++;
            }
            length = digits(length, "an exponent");
            c = nextOrEnd();
        }
        if (length > MAX_NUMBER_LENGTH) {
            throw syntax("a number longer than " + MAX_NUMBER_LENGTH + " characters");
        }
        requireDelimiter(c);
        if (integral && overflow) {
            throw syntax("an integer out of the range of a 64-bit number");
        }
        number = negative ? -value : value;
        return integral;
    }

    long number() {
        return number;
    }

    /** Skips the value that comes next, {@code depth} levels inside the document already. */
    void skipValue(int depth) throws IOException {
        int c = peek();
        switch (c) {
            case '"' -> readString();
            case '{', '[' -> skipContainer(c, depth + 1);
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> readNumber();
        }
    }

    /** Bytes consumed so far. */
    long offset() {
        return before + pos;
    }

    SyntaxException syntax(String what) {
        return new SyntaxException(what + " at byte " + offset());
    }

    private void skipContainer(int open, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw syntax("nesting deeper than " + MAX_DEPTH);
        }
        pos++;
        char close = open == '{' ? '}' : ']';
        if (consumeIf(close)) {
            return;
        }
        do {
            if (open == '{') {
                readString();
                consume(':');
            }
            skipValue(depth);
        } while (consumeIf(','));
        consume(close);
    }

    private void literal(String word) throws IOException {
        for (int i = 0; i < word.length(); i++) {
            int c = i == 0 ? peek() : nextByte();
            if (c != word.charAt(i)) {
                throw syntax("expected '" + word + "', found " + describe(c));
            }
            pos++;
        }
        requireDelimiter(nextOrEnd());
    }

    /** One digit or more, after {@code what}; returns {@code length} plus their count. */
    private int digits(int length, String what) throws IOException {
        int c = nextByte();
        if (c < '0' || c > '9') {
            throw syntax("expected a digit after " + what + ", found " + describe(c));
        }
        while (c >= '0' && c <= '9') {
            pos++;
            length++;
            c = nextOrEnd();
        }
        return length;
    }

    /** After a number or a literal: whitespace, punctuation that may follow a value, or the end. */
    private void requireDelimiter(int c) throws SyntaxException {
        if (c >= 0 && c != ',' && c != ']' && c != '}' && c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            throw syntax("unexpected " + describe(c) + " after a value");
        }
    }

    /** The byte at the position (not consumed); the input must not end here. */
    private int nextByte() throws IOException {
        int c = nextOrEnd();
        if (c < 0) {
            throw new EndOfInputException("input ends inside a value at byte " + offset());
        }
        return c;
    }

    /** The byte at the position (not consumed), or -1 at the end of the input. */
    private int nextOrEnd() throws IOException {
        if (pos == end && !fill()) {
            return -1;
        }
        return buf[pos] & 0xff;
    }

    private void escape() throws IOException {
        int c = nextByte();
        pos++;
        switch (c) {
            case '"', '\\', '/' -> appendByte(c);
            case 'b' -> appendByte('\b');
            case 'f' -> appendByte('\f');
            case 'n' -> appendByte('\n');
            case 'r' -> appendByte('\r');
            case 't' -> appendByte('\t');
            case 'u' -> {
                int unit = hex4();
                int codePoint = unit;
                if (Character.isHighSurrogate((char) unit)) {
                    if (nextByte() != '\\') {
                        throw syntax("a high surrogate escape without its low surrogate");
                    }
                    pos++;
                    if (nextByte() != 'u') {
                        throw syntax("a high surrogate escape without its low surrogate");
                    }
                    pos++;
                    int low = hex4();
                    if (!Character.isLowSurrogate((char) low)) {
                        throw syntax("a high surrogate escape without its low surrogate");
                    }
                    codePoint = Character.toCodePoint((char) unit, (char) low);
                } else if (Character.isLowSurrogate((char) unit)) {
                    throw syntax("a low surrogate escape without its high surrogate");
                }
                byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
                append(utf8, 0, utf8.length);
            }
            default -> throw syntax("invalid escape '\\" + (char) c + "'");
        }
    }

    private int hex4() throws IOException {
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int c = nextByte();
            int digit = Character.digit(c, 16);
            if (digit < 0) {
                throw syntax("invalid \\u escape");
            }
            value = value << 4 | digit;
            pos++;
        }
        return value;
    }

    /** A multi-byte UTF-8 sequence whose lead byte {@code lead} was consumed. */
    private void utf8(int lead) throws IOException {
        int continuation;
        int min;
        if (lead >= 0xc2 && lead <= 0xdf) {
            continuation = 1;
            min = 0x80;
        } else if (lead >= 0xe0 && lead <= 0xef) {
            continuation = 2;
            min = 0x800;
        } else if (lead >= 0xf0 && lead <= 0xf4) {
            continuation = 3;
            min = 0x10000;
        } else {
            throw syntax(String.format("invalid UTF-8 lead byte 0x%02x", lead));
        }
        int codePoint = lead & (0x3f >> continuation);
        appendByte(lead);
        for (int i = 0; i < continuation; i++) {
            int c = nextByte();
            if ((c & 0xc0) != 0x80) {
                throw syntax(String.format("invalid UTF-8 continuation byte 0x%02x", c));
            }
            codePoint = codePoint << 6 | (c & 0x3f);
            appendByte(c);
            pos++;
        }
        if (codePoint < min || codePoint > Character.MAX_CODE_POINT
                || (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE)) {
            throw syntax("invalid UTF-8 sequence");
        }
    }

    private void append(byte[] from, int offset, int length) {
        if (textLength + length > text.length) {
            text = Arrays.copyOf(text, Math.max(textLength + length, text.length * 2));
        }
        System.arraycopy(from, offset, text, textLength, length);
        textLength += length;
    }

    private void appendByte(int b) {
        if (textLength == text.length) {
            text = Arrays.copyOf(text, text.length * 2);
        }
        text[textLength++] = (byte) b;
    }

    private boolean fill() throws IOException {
        before += end;
        pos = 0;
        end = 0;
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            return false;
        }
        end = n;
        return true;
    }
}
