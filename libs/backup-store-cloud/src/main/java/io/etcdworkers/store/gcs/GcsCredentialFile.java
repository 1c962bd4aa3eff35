package io.etcdworkers.store.gcs;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A GCS credentials file that passed {@link GcsCredentialFileReader}'s checks: what it is and
 * which project it names. The key material stays in the file; only the SDK reads it.
 *
 * @param source the file ({@code GOOGLE_APPLICATION_CREDENTIALS}; etcd-druid mounts
 *     {@code /var/.gcp/serviceaccount.json})
 * @param type its {@code type}
 * @param projectId {@code project_id} of a service account key, or the {@code projectID} file
 *     beside a workload identity configuration
 */
public record GcsCredentialFile(Path source, Type type, String projectId) {
    /** The two credential types etcdbrctl v0.41 accepts. */
    public enum Type {
        /** A service account key ({@code "type": "service_account"}). */
        SERVICE_ACCOUNT("service_account"),
        /** Workload identity federation ({@code "type": "external_account"}, a token file beside it). */
        EXTERNAL_ACCOUNT("external_account");

        private final String json;

        Type(String json) {
            this.json = json;
        }

        /** The value of {@code type} in the file. */
        public String json() {
            return json;
        }
    }

    public GcsCredentialFile {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(projectId, "projectId");
    }
}
