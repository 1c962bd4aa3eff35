package io.etcdworkers.compaction.cli;

import io.etcdworkers.workercli.StorageProviderConverter;
import io.etcdworkers.workercli.StoreOptions;
import picocli.CommandLine.Option;

/**
 * A copy's source store: the target's store flags prefixed {@code --source-}, as etcdbrctl names
 * them. What is left out is filled from the target as etcdbrctl's {@code MergeWith} fills it: the
 * provider, the prefix and the temp dir; never the container, the endpoint or the credentials.
 */
public final class SourceStoreOptions {
    @Option(
            names = "--source-storage-provider",
            paramLabel = "Local|S3|ABS|GCS|Swift|OSS|ECS|OCS",
            converter = StorageProviderConverter.class,
            description = "The source's provider (names as --storage-provider). Default: the target's.")
    StoreOptions.Provider provider;

    @Option(
            names = "--source-store-container",
            paramLabel = "NAME|DIR",
            description =
                    "The source's bucket or container (Local: its directory). Falls back to SOURCE_STORAGE_CONTAINER, "
                            + "never to the target's.")
    String container;

    @Option(
            names = "--source-store-prefix",
            paramLabel = "PREFIX",
            description = "The source's prefix (objects under <prefix>/v2/). Default: the target's.")
    String prefix;

    @Option(
            names = "--source-store-endpoint-override",
            paramLabel = "URL",
            description = "The source's endpoint, as --store-endpoint-override; never the target's.")
    String endpointOverride;

    @Option(
            names = "--source-snapstore-temp-directory",
            paramLabel = "DIR",
            description = "Accepted for etcdbrctl's sake; objects are held under --snapstore-temp-directory.")
    String tempDirectory;

    @Option(
            names = "--source-max-parallel-chunk-uploads",
            paramLabel = "N",
            defaultValue = "5",
            description = "Accepted for etcdbrctl's sake (must be positive); the source is only read.")
    int maxParallelChunkUploads;

    @Option(
            names = "--source-min-chunk-size",
            paramLabel = "BYTES",
            defaultValue = "5242880",
            description = "Accepted for etcdbrctl's sake (at least 5 MiB); the source is only read.")
    long minChunkSize;

    /**
     * The source store, merged with the target's as etcdbrctl merges them.
     *
     * @param sourceContainerEnv {@code SOURCE_STORAGE_CONTAINER}, or null
     */
    StoreOptions merged(StoreOptions target, String sourceContainerEnv) {
        StoreOptions source = new StoreOptions();
        source.provider = provider != null ? provider : target.provider;
        source.container = container != null && !container.isBlank() ? container : sourceContainerEnv;
        source.prefix = prefix != null && !prefix.isBlank() ? prefix : target.prefix;
        source.endpointOverride = endpointOverride;
        source.localUnderHome = target.localUnderHome;
        source.requestTimeout = target.requestTimeout;
        return source;
    }
}
