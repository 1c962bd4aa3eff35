package io.etcdworkers.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A strict reader of one JSON document over UTF-8 bytes, with what a delta's event array needs:
 * besides {@link JsonInput}'s punctuation and numbers, read a string or a base64 string, walk an
 * object's members, skip any value. Strings must be valid UTF-8 and nesting at most {@link
 * #MAX_DEPTH} deep.
 *
 * <p>A string is read as its bytes, unescaped, into a buffer reused for every string: a base64
 * value goes from the decompressed input to the JDK's decoder with one copy. Jackson built its
 * text char by char, then a {@code String}, then that string's bytes for the decoder: a third of
 * the fetch threads' CPU after decompression (measured at 300,000 events of 3 KB values).
 */
final class JsonBytes extends JsonInput {
    /** The deepest nesting of objects and arrays read or skipped. */
    static final int MAX_DEPTH = 16;
    /** A string buffer grown past this is dropped after use, not kept for the next string. */
    private static final int KEPT_TEXT_BYTES = 1 << 20;

    private static final Base64.Decoder BASE64 = Base64.getDecoder();

    /** Reads one member's value, its name being {@link #textIs the text} when it is called. */
    @FunctionalInterface
    interface Member {
        void read(JsonBytes json) throws IOException;
    }

    private byte[] text = new byte[4096];
    private int textLength;

    JsonBytes(InputStream in) {
        super(in);
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

    /**
     * Reads the object that comes next: each member's name into the text
     * buffer, then {@code member} reads or skips its value.
     *
     * @return false when the next value is not an object (nothing consumed)
     */
    boolean readObject(Member member) throws IOException {
        if (peek() != '{') {
            return false;
        }
        pos++;
        if (consumeIf('}')) {
            return true;
        }
        do {
            readString();
            consume(':');
            member.read(this);
        } while (consumeIf(','));
        consume('}');
        return true;
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
        if (codePoint < min
                || codePoint > Character.MAX_CODE_POINT
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
}
