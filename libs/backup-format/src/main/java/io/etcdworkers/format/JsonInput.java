package io.etcdworkers.format;

import java.io.IOException;
import java.io.InputStream;

/**
 * The bytes of one JSON document as {@link JsonBytes} reads them, and the tokens that need no
 * buffer of their own: whitespace, punctuation, numbers and the literals. RFC 8259's grammar, no
 * extensions. The buffer and its position are the subclass's too: its string loop scans them in
 * place.
 */
abstract class JsonInput {
    /** Digits and signs of a number, at most (as the Jackson parser before this was configured). */
    private static final int MAX_NUMBER_LENGTH = 32;

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
    final byte[] buf = new byte[64 * 1024];
    int pos;
    int end;
    private long before;
    private long number;

    JsonInput(InputStream in) {
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

    /** Bytes consumed so far. */
    long offset() {
        return before + pos;
    }

    SyntaxException syntax(String what) {
        return new SyntaxException(what + " at byte " + offset());
    }

    void literal(String word) throws IOException {
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
    int nextByte() throws IOException {
        int c = nextOrEnd();
        if (c < 0) {
            throw new EndOfInputException("input ends inside a value at byte " + offset());
        }
        return c;
    }

    /** The byte at the position (not consumed), or -1 at the end of the input. */
    int nextOrEnd() throws IOException {
        if (pos == end && !fill()) {
            return -1;
        }
        return buf[pos] & 0xff;
    }

    boolean fill() throws IOException {
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
