package io.etcdworkers.testsupport;

import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bucket on the GCS emulator as GCS: the Secret laid out as etcd-druid mounts it
 * ({@code GOOGLE_APPLICATION_CREDENTIALS} naming {@code serviceaccount.json}), the endpoint in the
 * form etcdbrctl's docs use ({@code http://HOST:PORT/storage/v1/}); being http, it gets no
 * credentials, as etcdbrctl v0.41 sends none to an emulator.
 */
final class GcsProviderBucket implements ProviderBucket {
    private final GcsEmulatorServer emulator;
    private final String bucket;

    GcsProviderBucket(GcsEmulatorServer emulator, String bucket) {
        this.emulator = emulator;
        this.bucket = bucket;
    }

    @Override
    public String provider() {
        return "GCS";
    }

    @Override
    public String druidName() {
        return "gcp";
    }

    @Override
    public String container() {
        return bucket;
    }

    @Override
    public List<String> flags() {
        return List.of("--store-endpoint-override=" + emulator.endpoint() + "/storage/v1/");
    }

    @Override
    public Map<String, String> env(Path dir) {
        return GcsEmulatorServer.env(dir);
    }

    /** The stand-in private key's body: read by no one over http, and never printed. */
    @Override
    public String secret() {
        return "not-a-key";
    }

    @Override
    public void upload(String prefix, Path localBucket) {
        emulator.upload(bucket, prefix, localBucket);
    }

    @Override
    public Map<String, Long> objects(String prefix) {
        Map<String, Long> objects = new LinkedHashMap<>();
        for (Blob b : emulator.client()
                .list(bucket, Storage.BlobListOption.prefix(prefix))
                .iterateAll()) {
            objects.put(b.getName(), b.getSize());
        }
        return objects;
    }

    @Override
    public void delete(String key) {
        emulator.client().delete(BlobId.of(bucket, key));
    }
}
