package io.etcdworkers.restore.snapshot.codec;

import java.io.IOException;

/** TEMPORARY stand-in until the codec branch lands. */
public class TruncatedStreamException extends IOException {
    private static final long serialVersionUID = 1L;

    public TruncatedStreamException(String message) {
        super(message);
    }
}
