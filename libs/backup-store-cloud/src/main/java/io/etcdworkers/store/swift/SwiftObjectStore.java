package io.etcdworkers.store.swift;

import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.cloud.LengthCheckedInputStream;
import io.etcdworkers.store.swift.SwiftErrorTranslator.Target;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ObjectStore} over one OpenStack Swift container, through Swift's HTTP API on the
 * JDK's {@link java.net.http.HttpClient} ({@link SwiftContainerClient}). No Java client for Swift
 * is used: openstack4j and JOSS are unmaintained and absent from the Maven repository these
 * builds use, and the store needs five plain calls (list, GET, HEAD, PUT, DELETE) plus a Keystone
 * login ({@link SwiftAuthenticator}).
 *
 * <p>Listings page by marker ({@code ?format=json&prefix=&marker=&limit=}); reads stream, ranged
 * with {@code Range:} and length-checked. Writes are {@link SwiftSegmentWriter}s: one PUT for an
 * object up to a segment, a static large object for a larger one, nothing visible under the name
 * before its manifest is written. A dynamic large object that etcdbrctl wrote (its segments
 * {@code <name>/0000000001}..., a manifest with {@code X-Object-Manifest}) reads as one object;
 * its listed size is the manifest's 0, which only reports show.
 *
 * <p>Reads and listings may run concurrently; one writer is not thread-safe.
 */
public final class SwiftObjectStore implements ObjectStore {
    private static final Logger LOG = LoggerFactory.getLogger(SwiftObjectStore.class);

    private final SwiftContainerClient client;

    /** Builds the client; the first request logs in. */
    public SwiftObjectStore(SwiftStoreConfig config) {
        this.client = new SwiftContainerClient(Objects.requireNonNull(config, "config"));
        LOG.info("{}: logging in with {}", describe(), config.credentials().describe());
    }

    @Override
    public String describe() {
        return client.describe();
    }

    @Override
    public List<ObjectInfo> list(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        String action = "listing \"" + keyPrefix + "\"";
        int limit = client.config().pageSize();
        List<ObjectInfo> result = new ArrayList<>();
        String marker = "";
        while (true) {
            List<ObjectInfo> page = client.listPage(keyPrefix, marker, limit, action);
            result.addAll(page);
            if (page.size() < limit) {
                return result;
            }
            marker = page.get(page.size() - 1).key();
        }
    }

    @Override
    public InputStream open(String key) {
        Objects.requireNonNull(key, "key");
        String action = "reading \"" + key + "\"";
        SwiftContainerClient.Body body = client.get(key, 0, -1, action);
        return body.length() < 0
                ? body.in()
                : new LengthCheckedInputStream(body.in(), body.length(), describe() + ": \"" + key + "\"");
    }

    @Override
    public InputStream openRange(String key, long offset, long length) {
        Objects.requireNonNull(key, "key");
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative range " + offset + "+" + length + " of " + key);
        }
        String action = "reading \"" + key + "\" at " + offset + "+" + length;
        if (length == 0) {
            // "bytes=a-(a-1)" is no range; still fail as a real read would if the object is gone.
            if (client.head(key, action).isEmpty()) {
                throw client.errors().status(404, null, action, Target.OBJECT);
            }
            return InputStream.nullInputStream();
        }
        SwiftContainerClient.Body body = client.get(key, offset, length, action);
        return new LengthCheckedInputStream(
                body.in(), length, describe() + ": \"" + key + "\" at " + offset + "+" + length);
    }

    @Override
    public ObjectWriter create(String key) {
        Objects.requireNonNull(key, "key");
        // Log in now, so that a store that refuses us fails at create, before any bytes are made.
        client.connect();
        return new SwiftSegmentWriter(client, key);
    }

    @Override
    public void close() {
        // The JDK's HTTP client has nothing to close on Java 17; its threads are daemons.
    }
}
