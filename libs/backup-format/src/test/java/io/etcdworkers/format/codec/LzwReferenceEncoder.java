package io.etcdworkers.format.codec;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * A slow, map-based LZW encoder written straight from the format's rules, independent of
 * {@link LzwOutputStream}: after n codes since a clear, the dictionary's newest code is 257 + n
 * and codes are as wide as that number needs (9 to 12 bits).
 *
 * <p>With {@code clearWhenFull} it follows Go's writer (clear as soon as code 4095 would be
 * next). Without it, it fills all 4096 codes and then goes on with a frozen dictionary, as GIF
 * encoders that defer clearing do; Go's reader accepts such streams, so ours must too.
 */
final class LzwReferenceEncoder {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Map<Integer, Integer> dictionary = new HashMap<>();
    private final boolean clearWhenFull;
    private long bitBuffer;
    private int bitCount;
    /** Codes emitted since the last clear. */
    private int emitted;

    private LzwReferenceEncoder(boolean clearWhenFull) {
        this.clearWhenFull = clearWhenFull;
    }

    static byte[] encode(byte[] data, boolean clearWhenFull) {
        return new LzwReferenceEncoder(clearWhenFull).run(data);
    }

    private byte[] run(byte[] data) {
        put(256, 9);
        if (data.length > 0) {
            int match = data[0] & 0xff;
            for (int i = 1; i < data.length; i++) {
                int next = data[i] & 0xff;
                Integer longer = dictionary.get(match << 8 | next);
                if (longer != null) {
                    match = longer;
                    continue;
                }
                emit(match);
                int newest = 257 + emitted;
                if (clearWhenFull && newest == 4095) {
                    clear();
                } else if (newest <= 4095) {
                    dictionary.put(match << 8 | next, newest);
                }
                match = next;
            }
            emit(match);
            if (clearWhenFull && 257 + emitted == 4095) {
                clear();
            }
        }
        emit(257);
        if (bitCount > 0) {
            out.write((int) bitBuffer);
        }
        return out.toByteArray();
    }

    private void emit(int code) {
        put(code, width());
        emitted++;
    }

    private void clear() {
        put(256, 12);
        emitted = 0;
        dictionary.clear();
    }

    private int width() {
        int newest = Math.min(257 + emitted, 4095);
        return 32 - Integer.numberOfLeadingZeros(newest);
    }

    private void put(int code, int width) {
        bitBuffer |= (long) code << bitCount;
        bitCount += width;
        while (bitCount >= 8) {
            out.write((int) bitBuffer);
            bitBuffer >>>= 8;
            bitCount -= 8;
        }
    }
}
