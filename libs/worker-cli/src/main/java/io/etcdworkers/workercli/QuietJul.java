package io.etcdworkers.workercli;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * gRPC and Netty log through java.util.logging; their INFO lines (transport probing) are noise
 * on a worker's stderr. Only warnings pass.
 */
public final class QuietJul {
    private static final Logger GRPC = Logger.getLogger("io.grpc");
    private static final Logger NETTY = Logger.getLogger("io.netty");

    private QuietJul() {}

    public static void install() {
        GRPC.setLevel(Level.WARNING);
        NETTY.setLevel(Level.WARNING);
    }
}
