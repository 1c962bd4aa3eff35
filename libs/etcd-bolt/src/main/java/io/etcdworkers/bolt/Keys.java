package io.etcdworkers.bolt;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Key helpers: readable names in messages. */
final class Keys {
    private static final int SHOWN = 64;

    private Keys() {}

    /** The key as text when it is printable ASCII, else as hex; cut at 64 bytes. */
    static String show(byte[] key) {
        int n = Math.min(key.length, SHOWN);
        boolean printable = true;
        for (int i = 0; i < n; i++) {
            if (key[i] < 0x20 || key[i] > 0x7e) {
                printable = false;
                break;
            }
        }
        String s = printable
                ? '"' + new String(key, 0, n, StandardCharsets.US_ASCII) + '"'
                : "0x" + HexFormat.of().formatHex(key, 0, n);
        return key.length > SHOWN ? s + "..." : s;
    }
}
