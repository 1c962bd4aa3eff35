package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LogSetupTest {

    @Test
    void logbackFindsItThroughTheServiceLoader() {
        // this JVM's own context, configured as the workers' are: no logback.xml is left
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

        assertStderrAppender(context);
        assertThat(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel())
                .isEqualTo(LogSetup.rootLevel());
    }

    @Test
    void configuresStderrWithTheLinePatternAndQuietLibraries() {
        LoggerContext context = new LoggerContext();
        LogSetup setup = new LogSetup();
        setup.setContext(context);

        assertThat(setup.configure(context)).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertStderrAppender(context);
        assertThat(context.getLogger("io.grpc.netty").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("software.amazon.awssdk.request").getEffectiveLevel())
                .isEqualTo(Level.WARN);
        assertThat(context.getLogger("com.azure.storage").getEffectiveLevel()).isEqualTo(Level.OFF);
        assertThat(context.getLogger("io.etcdworkers.restore").getEffectiveLevel())
                .isEqualTo(LogSetup.rootLevel());
        context.stop();
    }

    @SuppressWarnings("unchecked")
    private static void assertStderrAppender(LoggerContext context) {
        var appender = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
        assertThat(appender).isInstanceOf(ConsoleAppender.class);
        ConsoleAppender<ILoggingEvent> console = (ConsoleAppender<ILoggingEvent>) appender;
        assertThat(console.getTarget()).isEqualTo("System.err");
        assertThat(console.isStarted()).isTrue();
        if (console.getEncoder() instanceof LayoutWrappingEncoder<ILoggingEvent> wrapping
                && wrapping.getLayout() instanceof PatternLayout pattern) {
            assertThat(pattern.getPattern()).isEqualTo(LogSetup.PATTERN);
        }
    }
}
