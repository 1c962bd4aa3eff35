package io.etcdworkers.format.codec;

import java.io.IOException;

/**
 * The compressed bytes end before their codec's end marker: everything read so far was valid,
 * but the stream is cut short (in the store or in transit).
 *
 * <p>The bytes decoded before the cut have already been handed out; callers must not treat
 * them as a complete object.
 */
public class TruncatedStreamException extends IOException {
    private static final long serialVersionUID = 1L;

    public TruncatedStreamException(String message) {
        super(message);
    }

    public TruncatedStreamException(String message, Throwable cause) {
        super(message, cause);
    }
}
