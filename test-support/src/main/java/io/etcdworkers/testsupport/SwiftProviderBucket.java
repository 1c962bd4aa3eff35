package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A container on Swift with Keystone v3 as Swift: the Secret as etcd-druid mounts it
 * ({@code OPENSTACK_APPLICATION_CREDENTIALS}, one file per key), the account from Keystone's
 * catalog (no endpoint flag). Uploads are what etcdbrctl's Swift store writes: every snapshot a
 * dynamic large object, segments {@code <name>/0000000001}... of {@value #DLO_SEGMENT} bytes (so a
 * full snapshot has several) and an empty manifest, which lists with size 0.
 */
final class SwiftProviderBucket implements ProviderBucket {
    static final int DLO_SEGMENT = 64 * 1024;

    private final SwiftServer swift;
    private final String container;

    SwiftProviderBucket(SwiftServer swift, String container) {
        this.swift = swift;
        this.container = container;
    }

    @Override
    public String provider() {
        return "Swift";
    }

    @Override
    public String druidName() {
        return "openstack";
    }

    @Override
    public String container() {
        return container;
    }

    @Override
    public List<String> flags() {
        return List.of();
    }

    @Override
    public Map<String, String> env(Path dir) {
        return swift.env(dir);
    }

    @Override
    public String secret() {
        return SwiftServer.PASSWORD;
    }

    @Override
    public void upload(String prefix, Path localBucket) {
        try (Stream<Path> files = Files.list(localBucket.resolve("v2"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                swift.client()
                        .putDynamicLargeObject(
                                container, prefix + "/v2/" + file.getFileName(), Files.readAllBytes(file), DLO_SEGMENT);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Manifests (size 0) and segments alike, as Swift lists them. */
    @Override
    public Map<String, Long> objects(String prefix) {
        return swift.client().listing(container, prefix);
    }

    @Override
    public void delete(String key) {
        swift.client().delete(container, key);
    }
}
