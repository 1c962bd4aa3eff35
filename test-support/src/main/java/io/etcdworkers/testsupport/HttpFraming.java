package io.etcdworkers.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The HTTP/1.1 framing {@link FaultProxy} needs to forward messages byte for byte: a message's
 * first line and headers, and its body as it came (content-length, chunked or to the close).
 */
final class HttpFraming {
    private HttpFraming() {}

    static boolean hasBody(Head response) {
        String status = response.first.split(" ")[1];
        return !(status.startsWith("1") || status.equals("204") || status.equals("304"));
    }

    /** The raw body bytes (chunked framing included, so they are forwarded as they came). */
    static byte[] readBody(InputStream in, Head head, boolean response) throws IOException {
        if (response && !hasBody(head)) {
            return new byte[0];
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String length = head.header("content-length");
        String encoding = head.header("transfer-encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            while (true) {
                String sizeLine = readLine(in);
                body.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
                if (size == 0) {
                    String trailer;
                    do {
                        trailer = readLine(in);
                        body.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    } while (!trailer.isEmpty());
                    return body.toByteArray();
                }
                body.write(in.readNBytes(size + 2));
            }
        }
        if (length != null) {
            int n = Integer.parseInt(length.trim());
            byte[] bytes = in.readNBytes(n);
            if (bytes.length < n) {
                throw new EOFException("body ended early");
            }
            return bytes;
        }
        return response ? in.readAllBytes() : new byte[0];
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new EOFException("connection closed mid-line");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** A request or response line with its headers. */
    static final class Head {
        final String first;
        final List<String> headers;

        Head(String first, List<String> headers) {
            this.first = first;
            this.headers = headers;
        }

        /** Null at a clean end of the connection before a new message. */
        static Head read(InputStream in) throws IOException {
            String first;
            try {
                first = readLine(in);
            } catch (EOFException e) {
                return null;
            }
            List<String> headers = new ArrayList<>();
            for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
                headers.add(line);
            }
            return new Head(first, headers);
        }

        String header(String name) {
            for (String h : headers) {
                int colon = h.indexOf(':');
                if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return h.substring(colon + 1).trim();
                }
            }
            return null;
        }

        byte[] bytesWithout(String name) {
            StringBuilder s = new StringBuilder(first).append("\r\n");
            for (String h : headers) {
                int colon = h.indexOf(':');
                if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    continue;
                }
                s.append(h).append("\r\n");
            }
            return s.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        }
    }
}
