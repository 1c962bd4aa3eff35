package io.etcdworkers.store.azure;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The content of an etcd-backup-restore ABS credentials Secret, as read by
 * {@link AzureCredentialFileReader}.
 *
 * @param source the file or directory read, for messages
 * @param storageAccount {@code storageAccount}
 * @param storageKey {@code storageKey}: the account's shared key, base64 (secret; never printed)
 * @param domain {@code domain}: deprecated by etcdbrctl v0.41 in favour of
 *     {@code --store-endpoint-override}, still honoured as etcdbrctl does
 * @param ignoredKeys keys etcdbrctl v0.41 no longer reads ({@code emulatorEnabled}) that the Secret holds
 */
public record AzureCredentials(
        Path source, String storageAccount, String storageKey, Optional<String> domain, List<String> ignoredKeys) {
    public AzureCredentials {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(storageAccount, "storageAccount");
        Objects.requireNonNull(storageKey, "storageKey");
        Objects.requireNonNull(domain, "domain");
        ignoredKeys = List.copyOf(ignoredKeys);
    }

    /** Without the key. */
    @Override
    public String toString() {
        return "AzureCredentials[source=" + source + ", storageAccount=" + storageAccount + ", storageKey=***, domain="
                + domain.orElse("(default)") + "]";
    }
}
