package io.etcdworkers.testsupport;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One storage provider's bucket on the real server the tests run for it ({@link ProviderServers}):
 * how a worker is pointed at it (the provider's names, its Secret as etcd-druid mounts it, the
 * flags it needs beside {@code --store-container} and {@code --store-prefix}) and the test's own
 * look at what lies there, through the server's client and not the store under test. So one test
 * body, given a provider's name, runs against every provider.
 */
public interface ProviderBucket {
    /** etcdbrctl's name ({@code S3}, {@code ABS}, ...): what a result's {@code storageProvider} says. */
    String provider();

    /** etcd-druid's name for it ({@code aws}, {@code azure}, ...): what its Jobs pass to {@code --storage-provider}. */
    String druidName();

    /** The bucket (ABS and Swift: container) on the server. */
    String container();

    /** Flags the worker needs beside the provider, container and prefix: the endpoint, when the Secret does not name it. */
    List<String> flags();

    /** Writes the provider's Secret under {@code dir} as etcd-druid mounts it; the environment that points a worker at it. */
    Map<String, String> env(Path dir);

    /** The Secret's secret value (key, password): never in a worker's output. */
    String secret();

    /** Copies every object of a Local bucket's {@code v2/} to {@code <prefix>/v2/<name>}, as etcdbrctl writes them there. */
    void upload(String prefix, Path localBucket);

    /** Every object under {@code prefix} with its listed size, by name. */
    Map<String, Long> objects(String prefix);

    void delete(String key);
}
