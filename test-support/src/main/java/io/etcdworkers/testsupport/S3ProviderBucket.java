package io.etcdworkers.testsupport;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A bucket on S3Proxy as S3 or as one of the providers the workers read through their S3 store
 * (OSS, ECS, OCS): the same server and bucket, each with its own Secret ({@link S3CompatibleSecrets}).
 */
final class S3ProviderBucket implements ProviderBucket {
    private final S3ProxyServer s3;
    private final String provider;
    private final String druidName;
    private final String bucket;

    S3ProviderBucket(S3ProxyServer s3, String provider, String druidName, String bucket) {
        this.s3 = s3;
        this.provider = provider;
        this.druidName = druidName;
        this.bucket = bucket;
    }

    @Override
    public String provider() {
        return provider;
    }

    @Override
    public String druidName() {
        return druidName;
    }

    @Override
    public String container() {
        return bucket;
    }

    /** S3 alone takes its endpoint from the flag; the others' Secrets name it. */
    @Override
    public List<String> flags() {
        return provider.equals("S3") ? List.of("--store-endpoint-override=" + s3.endpoint()) : List.of();
    }

    @Override
    public Map<String, String> env(Path dir) {
        return S3CompatibleSecrets.env(s3, provider, s3.credential(), dir);
    }

    @Override
    public String secret() {
        return s3.credential();
    }

    @Override
    public void upload(String prefix, Path localBucket) {
        S3Buckets.upload(s3, bucket, prefix, localBucket);
    }

    @Override
    public Map<String, Long> objects(String prefix) {
        Map<String, Long> objects = new LinkedHashMap<>();
        for (S3Object o : s3.client()
                .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
                .contents()) {
            objects.put(o.key(), o.size());
        }
        return objects;
    }

    @Override
    public void delete(String key) {
        s3.client().deleteObject(b -> b.bucket(bucket).key(key));
    }
}
