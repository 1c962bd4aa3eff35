package io.etcdworkers.store.gcs;

import java.util.Objects;
import java.util.Optional;

/**
 * Which identity a {@link GcsObjectStore} sends, as {@link GcsStoreConfigFactory} resolved it.
 * No key material: the SDK reads the file itself when the store is built.
 *
 * @param kind how the SDK gets its credentials
 * @param file the checked credentials file, for {@link Kind#FILE}
 * @param reason for {@link Kind#ANONYMOUS}: why nothing is sent (for the log)
 */
public record GcsCredentials(Kind kind, Optional<GcsCredentialFile> file, String reason) {
    /** Where the credentials come from. */
    public enum Kind {
        /** None: an emulator (an {@code http} endpoint, or {@code STORAGE_EMULATOR_HOST}). */
        ANONYMOUS,
        /** The file {@code GOOGLE_APPLICATION_CREDENTIALS} names. */
        FILE,
        /**
         * The SDK's application default credentials: gcloud's well-known file, else the metadata
         * server (GKE workload identity, the node's service account).
         */
        AMBIENT
    }

    public GcsCredentials {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(reason, "reason");
        if (file.isPresent() != (kind == Kind.FILE)) {
            throw new IllegalArgumentException("a credentials file goes with kind FILE only: " + kind);
        }
    }

    public static GcsCredentials anonymous(String reason) {
        return new GcsCredentials(Kind.ANONYMOUS, Optional.empty(), reason);
    }

    public static GcsCredentials file(GcsCredentialFile file) {
        return new GcsCredentials(Kind.FILE, Optional.of(file), "GOOGLE_APPLICATION_CREDENTIALS");
    }

    public static GcsCredentials ambient() {
        return new GcsCredentials(Kind.AMBIENT, Optional.empty(), "GOOGLE_APPLICATION_CREDENTIALS is not set");
    }

    /** For the log: what is sent, from where. */
    public String describe() {
        return switch (kind) {
            case ANONYMOUS -> "no credentials (" + reason + ")";
            case FILE ->
                file.get().type().json() + " credentials from " + file.get().source();
            case AMBIENT -> "the SDK's application default credentials (" + reason + ")";
        };
    }
}
