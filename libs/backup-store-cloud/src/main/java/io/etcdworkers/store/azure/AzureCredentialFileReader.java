package io.etcdworkers.store.azure;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.store.CredentialSecret;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Reads etcd-backup-restore's ABS credentials as etcd-druid mounts them from the backup Secret
 * and {@code etcdbrctl} (v0.41) reads them: a JSON file ({@code AZURE_APPLICATION_CREDENTIALS_JSON})
 * or a directory ({@code AZURE_APPLICATION_CREDENTIALS}) holding either a {@code *.json} file,
 * which wins, or one file per key (both forms through {@link CredentialSecret}):
 * {@code storageAccount}, {@code storageKey}, optional {@code domain}. {@code bucketName} is read
 * by neither (the container is the flag or {@code STORAGE_CONTAINER}).
 *
 * <p>Differences from theirs, all lenient or earlier: those of {@link CredentialSecret}, the JSON
 * form must also name both account and key, and a key that is not base64 is refused here rather
 * than at the first request. Errors are {@link ErrorCode#USAGE} and name the file and key, never
 * a value.
 */
public final class AzureCredentialFileReader {
    static final String PROVIDER = "ABS";
    private static final String LEGACY_EMULATOR_KEY = "emulatorEnabled";

    private AzureCredentialFileReader() {}

    /** The keys of either form of the Secret. */
    static AzureCredentials read(CredentialSecret s) {
        Optional<String> account = s.text("storageAccount");
        Optional<String> key = s.text("storageKey");
        List<String> missing = new ArrayList<>();
        account.ifPresentOrElse(a -> {}, () -> missing.add("storageAccount"));
        key.ifPresentOrElse(k -> {}, () -> missing.add("storageKey"));
        if (!missing.isEmpty()) {
            throw s.invalid("must set storageAccount and storageKey; missing: " + String.join(", ", missing));
        }
        try {
            Base64.getDecoder().decode(key.get());
        } catch (IllegalArgumentException e) {
            // Not the decoder's message: it may quote the offending character.
            throw s.invalid("key storageKey is not base64 (an Azure storage account key is)");
        }
        List<String> ignored = s.has(LEGACY_EMULATOR_KEY) ? List.of(LEGACY_EMULATOR_KEY) : List.of();
        return new AzureCredentials(s.source(), account.get(), key.get(), s.text("domain"), ignored);
    }
}
