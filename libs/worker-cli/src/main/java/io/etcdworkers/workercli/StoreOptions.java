package io.etcdworkers.workercli;

import io.etcdworkers.contract.WorkerFlags;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The store flags shared by every worker command, named as {@code etcdbrctl} names them so a
 * user can switch without relearning.
 */
public final class StoreOptions {

    /**
     * The providers this worker can read, by {@code etcdbrctl}'s names; etcd-druid's spellings
     * and the refusal of the others are {@link StorageProviderConverter}'s.
     */
    public enum Provider {
        Local,
        S3,
        ABS,
        GCS,
        Swift,
        OSS,
        ECS,
        OCS
    }

    @Option(
            names = WorkerFlags.STORAGE_PROVIDER,
            paramLabel = "Local|S3|ABS|GCS|Swift|OSS|ECS|OCS",
            converter = StorageProviderConverter.class,
            description = "Where the backups are: Local (a directory), S3 (any S3-compatible store), ABS (Azure Blob "
                    + "Storage), GCS (Google Cloud Storage), Swift (OpenStack), OSS (Alibaba), ECS (Dell) or OCS "
                    + "(OpenShift); etcd-druid's local, aws, stackit, azure, gcp, openstack, alicloud, dell and openshift (and the names in lower case) are "
                    + "accepted too. Default: ${DEFAULT-VALUE}.",
            defaultValue = "Local")
    public Provider provider;

    @Option(
            names = WorkerFlags.STORE_CONTAINER,
            paramLabel = "NAME|DIR",
            description =
                    "The bucket (S3, GCS, OSS, ECS, OCS) or ABS or Swift container, or for Local the directory holding <prefix>/v2/ (absolute or relative to the working directory). Falls back to STORAGE_CONTAINER.")
    public String container;

    @Option(
            names = WorkerFlags.STORE_PREFIX,
            paramLabel = "PREFIX",
            defaultValue = "",
            description = "Prefix of the snapshots in the container (objects are under <prefix>/v2/). Default: none.")
    public String prefix;

    @Option(
            names = WorkerFlags.STORE_ENDPOINT_OVERRIDE,
            paramLabel = "URL",
            description =
                    "Endpoint of an S3-compatible store (MinIO, Ceph, S3Proxy...), or for ABS the URL the container "
                            + "name is appended to (Azurite: http://HOST:PORT/devstoreaccount1), for GCS the JSON API's root "
                            + "(http[s]://HOST[:PORT][/storage/v1/]; http means an emulator, sent no credentials), for Swift the "
                            + "account URL used instead of the login's (http[s]://HOST[:PORT]/v1/AUTH_<project>); for OSS, ECS "
                            + "and OCS it replaces the endpoint of their credentials. Default: AWS, "
                            + "https://<account>.blob.core.windows.net, https://storage.googleapis.com, the Keystone catalog's "
                            + "object-store endpoint, or the credentials' endpoint.")
    public String endpointOverride;

    @Option(
            names = "--local-under-home",
            description =
                    "Local: find the container as etcdbrctl v0.41+ does, at $HOME/<container> (Go's path.Join, so "
                            + "an absolute container is under $HOME too: etcd-druid mounts the Local store at "
                            + "/home/nonroot/<container>; no container: default.bkp). Without it the container is a "
                            + "path, as etcdbrctl v0.23 reads it. The image's etcdbrctl entry point turns it on.")
    public boolean localUnderHome;

    @Option(
            names = "--store-request-timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description =
                    "S3-compatible stores, ABS and Swift: the longest one request may take (for a download, until its body "
                            + "starts; a body that stalls this long breaks off); GCS: the longest a request waits for the next "
                            + "bytes of its answer. A request that times out is retried like a 503. Default: 2m.")
    public Duration requestTimeout;

    /** The command these options are part of; null when they were built without a command line. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * Whether {@code --storage-provider} was left out (on the command line and in its environment
     * twin), so that the provider is the default, Local; false when that cannot be told.
     */
    public boolean providerDefaulted(Map<String, String> env) {
        return command != null
                && command.commandLine() != null
                && command.commandLine().getParseResult() != null
                && !command.commandLine().getParseResult().hasMatchedOption(WorkerFlags.STORAGE_PROVIDER)
                && env.get(EnvDefaultProvider.variableFor(WorkerFlags.STORAGE_PROVIDER)) == null;
    }
}
