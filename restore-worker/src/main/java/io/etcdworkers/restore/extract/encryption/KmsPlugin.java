package io.etcdworkers.restore.extract.encryption;

import java.nio.charset.StandardCharsets;

/**
 * A {@code kms} provider of the configuration: values it encrypted start {@code
 * k8s:enc:kms:<apiVersion>:<name>:}, and only its plugin, at {@code endpoint}, can unwrap their data
 * keys.
 *
 * @param apiVersion {@code v1} (the default) or {@code v2}
 * @param name the provider's name
 * @param endpoint the plugin's gRPC socket, e.g. {@code unix:///var/run/kms/kms.sock}; empty when not given
 * @param where its place in the file, e.g. {@code resources[0].providers[3].kms}
 */
public record KmsPlugin(String apiVersion, String name, String endpoint, String where) {
    /** The prefix of the values this plugin encrypted. */
    public byte[] prefix() {
        return ("k8s:enc:kms:" + apiVersion + ":" + name + ":").getBytes(StandardCharsets.UTF_8);
    }
}
