package io.etcdworkers.format.codec;

import java.io.IOException;

/**
 * The compressed bytes are not a valid stream of their codec: an invalid code or block, a
 * checksum that does not match, or data after the end of the stream.
 *
 * <p>Kept apart from {@link TruncatedStreamException} because the two call for different
 * reactions: a corrupt object stays corrupt, a truncated one may be whole on the next read.
 */
public class CorruptStreamException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptStreamException(String message) {
        super(message);
    }

    public CorruptStreamException(String message, Throwable cause) {
        super(message, cause);
    }
}
