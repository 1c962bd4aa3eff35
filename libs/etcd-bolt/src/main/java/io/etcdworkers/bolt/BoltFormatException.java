package io.etcdworkers.bolt;

import java.io.IOException;

/**
 * A bbolt file that is not sound: bad magic or checksum in both meta pages, a page whose header
 * does not carry its own id, unexpected page or element flags, a page pointer outside the pages
 * in use, a page reached twice (cycle or shared subtree), keys out of order, or an element that
 * points outside its page.
 */
public final class BoltFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public BoltFormatException(String message) {
        super(message);
    }
}
