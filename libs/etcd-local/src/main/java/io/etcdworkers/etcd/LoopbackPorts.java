package io.etcdworkers.etcd;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;

/**
 * Free TCP ports on the loopback interface, for the embedded etcd's client and peer listeners.
 *
 * <p>The port is free when returned and may be taken by someone else before etcd binds it; the
 * caller retries with another port on a bind failure.
 */
public final class LoopbackPorts {
    /** The only address the scratch etcd ever listens on. */
    public static final String HOST = "127.0.0.1";

    private LoopbackPorts() {}

    /** A port nobody listens on right now, chosen by the kernel. */
    public static int free() {
        // 127.0.0.1 rather than getLoopbackAddress(): with IPv6 preferred that is ::1, and a
        // port free there says nothing about the IPv4 address etcd binds.
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot find a free loopback port: " + e.getMessage(), e);
        }
    }

    /** {@code http://127.0.0.1:port}. */
    public static URI url(int port) {
        return URI.create("http://" + HOST + ":" + port);
    }
}
