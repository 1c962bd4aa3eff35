package io.etcdworkers.workercli;

import java.net.URI;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --metrics-pushgateway URL}: where a run pushes its final figures (see {@link MetricsPush}). */
public final class MetricsOptions {
    @Option(
            names = "--metrics-pushgateway",
            paramLabel = "URL",
            description = "Push the run's final figures (succeeded, exit code, duration, revision, keys...) to this "
                    + "Prometheus Pushgateway, e.g. http://pushgateway.monitoring:9091. Default: none.")
    String pushgateway;

    public Optional<URI> pushgateway() {
        return pushgateway == null || pushgateway.isBlank()
                ? Optional.empty()
                : Optional.of(URI.create(pushgateway.strip()));
    }
}
