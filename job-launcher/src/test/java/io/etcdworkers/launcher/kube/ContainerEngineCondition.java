package io.etcdworkers.launcher.kube;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * Disables a test class where Testcontainers finds no container engine, and says so in the build
 * output (the reason also lands in the failsafe report), instead of failing or passing silently.
 */
final class ContainerEngineCondition implements ExecutionCondition {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerEngineCondition.class);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (DockerClientFactory.instance().isDockerAvailable()) {
            return ConditionEvaluationResult.enabled("a container engine is available");
        }
        String reason = "SKIPPED " + context.getDisplayName()
                + ": no container engine (Docker or a compatible socket) on this machine, so no k3s";
        if (context.getTestMethod().isEmpty()) {
            LOG.warn(reason);
        }
        return ConditionEvaluationResult.disabled(reason);
    }
}
