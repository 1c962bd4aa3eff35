package io.etcdworkers.contract;

import java.util.Locale;

/**
 * The environment variables a worker reads that the launcher (or etcd-druid's backup Secret
 * layout) sets: the names etcd-backup-restore uses, so a pod spec that works for the backup
 * sidecar works for the workers unchanged. Each credentials variable names a path (a mounted
 * file or directory), never a secret itself; the exception is ECS, whose keys etcd-druid passes as
 * variables (from the Secret, through secretKeyRefs).
 */
public final class WorkerEnv {
    /** The bucket or container when {@link WorkerFlags#STORE_CONTAINER} is not given. */
    public static final String STORAGE_CONTAINER = "STORAGE_CONTAINER";
    /** S3: a directory with a {@code *.json} credentials file or one file per key. */
    public static final String AWS_APPLICATION_CREDENTIALS = "AWS_APPLICATION_CREDENTIALS";
    /** S3: a JSON credentials file; wins over {@link #AWS_APPLICATION_CREDENTIALS}. */
    public static final String AWS_APPLICATION_CREDENTIALS_JSON = "AWS_APPLICATION_CREDENTIALS_JSON";
    /** ABS: a directory with a {@code *.json} file, or the files {@code storageAccount} and {@code storageKey}. */
    public static final String AZURE_APPLICATION_CREDENTIALS = "AZURE_APPLICATION_CREDENTIALS";
    /** ABS: a JSON credentials file; wins over {@link #AZURE_APPLICATION_CREDENTIALS}. */
    public static final String AZURE_APPLICATION_CREDENTIALS_JSON = "AZURE_APPLICATION_CREDENTIALS_JSON";
    /** OSS: a directory with a {@code *.json} file, or the files {@code accessKeyID}, {@code accessKeySecret}, {@code storageEndpoint}. */
    public static final String ALICLOUD_APPLICATION_CREDENTIALS = "ALICLOUD_APPLICATION_CREDENTIALS";
    /** OSS: a JSON credentials file; wins over {@link #ALICLOUD_APPLICATION_CREDENTIALS}. */
    public static final String ALICLOUD_APPLICATION_CREDENTIALS_JSON = "ALICLOUD_APPLICATION_CREDENTIALS_JSON";
    /** OCS: a directory with a {@code *.json} file, or one file per key ({@code endpoint}, {@code region}, ...). */
    public static final String OPENSHIFT_APPLICATION_CREDENTIALS = "OPENSHIFT_APPLICATION_CREDENTIALS";
    /** OCS: a JSON credentials file; wins over {@link #OPENSHIFT_APPLICATION_CREDENTIALS}. */
    public static final String OPENSHIFT_APPLICATION_CREDENTIALS_JSON = "OPENSHIFT_APPLICATION_CREDENTIALS_JSON";
    /**
     * ECS: the endpoint URL. ECS is the one provider etcd-druid gives no mounted Secret: it sets this and the two
     * keys below from the Secret's {@code endpoint}, {@code accessKeyID} and {@code secretAccessKey} (secretKeyRef).
     */
    public static final String ECS_ENDPOINT = "ECS_ENDPOINT";
    /** ECS: the access key ID (from the Secret through a secretKeyRef, never in a pod spec). */
    public static final String ECS_ACCESS_KEY_ID = "ECS_ACCESS_KEY_ID";
    /** ECS: the secret access key (from the Secret through a secretKeyRef, never in a pod spec). */
    public static final String ECS_SECRET_ACCESS_KEY = "ECS_SECRET_ACCESS_KEY";
    /** ECS, optional: {@code true} sends plain HTTP whatever the endpoint's scheme. */
    public static final String ECS_DISABLE_SSL = "ECS_DISABLE_SSL";
    /** ECS, optional: {@code true} accepts any server certificate. */
    public static final String ECS_INSECURE_SKIP_VERIFY = "ECS_INSECURE_SKIP_VERIFY";
    /**
     * Swift: a directory with a {@code *.json} file, or one file per key ({@code authURL}, {@code domainName},
     * {@code tenantName}, {@code username}/{@code password} or {@code applicationCredential*}).
     */
    public static final String OPENSTACK_APPLICATION_CREDENTIALS = "OPENSTACK_APPLICATION_CREDENTIALS";
    /** Swift: a JSON credentials file; wins over {@link #OPENSTACK_APPLICATION_CREDENTIALS}. */
    public static final String OPENSTACK_APPLICATION_CREDENTIALS_JSON = "OPENSTACK_APPLICATION_CREDENTIALS_JSON";
    /** Swift: the region whose object-store endpoint the token's catalog gives (as etcdbrctl: not the Secret's). */
    public static final String OS_REGION_NAME = "OS_REGION_NAME";
    /** GCS: a credentials JSON file (etcd-druid mounts the Secret at {@code /var/.gcp/}, key {@code serviceaccount.json}). */
    public static final String GOOGLE_APPLICATION_CREDENTIALS = "GOOGLE_APPLICATION_CREDENTIALS";
    /** GCS: an endpoint override; etcd-druid sets it from the Secret's optional key {@code storageAPIEndpoint}. */
    public static final String GOOGLE_STORAGE_API_ENDPOINT = "GOOGLE_STORAGE_API_ENDPOINT";
    /**
     * The namespace of the snapshot Leases a compaction renews (etcd-druid's Jobs set it from the pod's
     * {@code metadata.namespace}, as for etcdbrctl); without it, the namespace of the Kubernetes client's
     * configuration (the ServiceAccount's, in a pod).
     */
    public static final String POD_NAMESPACE = "POD_NAMESPACE";
    /** Every worker flag has an environment twin: this prefix and the flag in upper snake case. */
    public static final String FLAG_TWIN_PREFIX = "ETCD_WORKER_";

    private WorkerEnv() {}

    /** The twin of a long flag: {@code --store-prefix} is {@code ETCD_WORKER_STORE_PREFIX}. */
    public static String twinOf(String longFlag) {
        String bare = longFlag.replaceFirst("^-+", "");
        return FLAG_TWIN_PREFIX + bare.toUpperCase(Locale.ROOT).replace('-', '_');
    }
}
