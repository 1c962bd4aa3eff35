package io.etcdworkers.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real servers the providers are tested against, each started at most once and only when a
 * test first asks for one of its providers, and all stopped by {@link #close()}: S3Proxy (S3 and
 * the providers read through the S3 store: OSS, ECS, OCS, one bucket for all four), Azurite (ABS),
 * the GCS emulator, Swift with Keystone. A class that holds one for its whole life
 * ({@code @TestInstance(PER_CLASS)} or a static) pays each start once, whatever it runs against
 * each provider; one that runs on a single provider starts no other server.
 *
 * <p>A server that is not installed fails (CI) or skips (elsewhere) the test that asked for it,
 * as the server classes do.
 */
public final class ProviderServers implements AutoCloseable {
    /** etcdbrctl's names of the providers that have a server here, in etcd-druid's order ({@code Local} has none). */
    public static final List<String> PROVIDERS = List.of("S3", "ABS", "GCS", "Swift", "OSS", "ECS", "OCS");
    /** The bucket (container) every provider's tests use. */
    public static final String CONTAINER = "etcd-backups";

    private final Path dir;
    private final Map<String, ProviderBucket> buckets = new HashMap<>();
    /** Why a provider's server did not start (or is not installed): each later test of it is told at once. */
    private final Map<String, RuntimeException> failures = new HashMap<>();

    private final List<AutoCloseable> started = new ArrayList<>();
    private S3ProxyServer s3;

    /** Nothing starts yet; each server's files go under {@code dir}. */
    public ProviderServers(Path dir) {
        this.dir = dir;
    }

    /** {@code provider}'s bucket (etcdbrctl's name), its server started and the bucket created on first use. */
    public synchronized ProviderBucket bucket(String provider) {
        ProviderBucket bucket = buckets.get(provider);
        if (bucket != null) {
            return bucket;
        }
        if (failures.containsKey(provider)) {
            throw failures.get(provider);
        }
        try {
            bucket = start(provider);
        } catch (RuntimeException e) {
            failures.put(provider, e);
            throw e;
        }
        buckets.put(provider, bucket);
        return bucket;
    }

    private ProviderBucket start(String provider) {
        return switch (provider) {
            case "S3" -> new S3ProviderBucket(s3(), "S3", "aws", CONTAINER);
            case "OSS" -> new S3ProviderBucket(s3(), "OSS", "alicloud", CONTAINER);
            case "ECS" -> new S3ProviderBucket(s3(), "ECS", "dell", CONTAINER);
            case "OCS" -> new S3ProviderBucket(s3(), "OCS", "openshift", CONTAINER);
            case "ABS" -> {
                AzuriteServer azurite = keep(AzuriteServer.start(dir.resolve("azurite")));
                azurite.createContainer(CONTAINER);
                yield new AbsProviderBucket(azurite, CONTAINER);
            }
            // the emulator creates a bucket on its first request that names it
            case "GCS" -> new GcsProviderBucket(keep(GcsEmulatorServer.start(dir.resolve("gcs"))), CONTAINER);
            case "Swift" -> {
                SwiftServer swift = keep(SwiftServer.start(dir.resolve("swift")));
                swift.client().createContainer(CONTAINER);
                yield new SwiftProviderBucket(swift, CONTAINER);
            }
            default -> throw new IllegalArgumentException("no server for provider " + provider + "; have " + PROVIDERS);
        };
    }

    private S3ProxyServer s3() {
        if (s3 == null) {
            s3 = keep(S3ProxyServer.start(dir.resolve("s3")));
            s3.createBucket(CONTAINER);
        }
        return s3;
    }

    private <T extends AutoCloseable> T keep(T server) {
        started.add(server);
        return server;
    }

    /** Stops every server started, the last first. */
    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("a server did not stop", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        started.clear();
        buckets.clear();
        failures.clear();
        s3 = null;
        if (failure != null) {
            throw failure;
        }
    }
}
