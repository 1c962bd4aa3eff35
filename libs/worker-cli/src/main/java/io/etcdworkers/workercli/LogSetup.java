package io.etcdworkers.workercli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * Both workers' logging, set up in code: Logback finds this through the service loader before it
 * looks for an XML file (reading one, with its SAX parser and model, took 0.12 s of the main
 * thread at every start). Logs go to stderr, one line each: stdout carries only the result JSON,
 * so scripts can parse it. The root level is {@code LOG_LEVEL} (a system property or the
 * environment; {@code INFO} when unset or unknown). A file named by {@code
 * -Dlogback.configurationFile} still wins: then this steps aside. A line is the message and then the
 * event's key-value pairs as {@code key=value} ({@link KeyValueText}).
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{0} - %msg%kv%n";
    /** The conversion word of {@link KeyValueText}. */
    static final String KEY_VALUES = "kv";

    /** Libraries that say too much at INFO. */
    static final Map<String, Level> QUIETER = Map.of(
            "io.netty", Level.WARN,
            "io.grpc", Level.WARN,
            "io.vertx", Level.WARN,
            "software.amazon.awssdk", Level.WARN,
            "org.apache.http", Level.WARN,
            // the Azure SDK logs every failure it throws at ERROR with the service's raw message;
            // the worker reports each once, classified (AzureErrorTranslator)
            "com.azure", Level.OFF);

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put(KEY_VALUES, KeyValueText::new);
        layout.setPattern(PATTERN);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(rootLevel());
        root.addAppender(stderr);
        QUIETER.forEach((name, level) -> context.getLogger(name).setLevel(level));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    static Level rootLevel() {
        String level = System.getProperty("LOG_LEVEL", System.getenv("LOG_LEVEL"));
        return Level.toLevel(level, Level.INFO);
    }
}
