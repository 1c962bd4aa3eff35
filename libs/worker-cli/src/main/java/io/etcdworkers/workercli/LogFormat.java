package io.etcdworkers.workercli;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.util.Locale;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * {@code --log-format text|json}: the log lines on stderr as text (the default) or as one JSON
 * object per line ({@link JsonLineEncoder}: {@code timestamp}, {@code level}, {@code loggerName},
 * {@code formattedMessage}, {@code throwable}, and the event's key-value pairs such as {@code revision},
 * {@code phase} or {@code snapshot} as fields of their own), for log pipelines that index fields.
 * It swaps the encoder of logback's {@code STDERR} appender ({@link LogSetup}) as the flag is parsed, so
 * every line after it is in the format asked for; {@code text} puts the configured one back.
 */
public final class LogFormat {
    private static final String APPENDER = "STDERR";
    /** Where a context keeps the encoder it was configured with, to put it back for {@code text}. */
    private static final String CONFIGURED = LogFormat.class.getName() + ".configured";

    @Option(
            names = "--log-format",
            paramLabel = "text|json",
            defaultValue = "text",
            description = "Log lines on stderr as text or as one JSON object per line. Default: ${DEFAULT-VALUE}.")
    void setFormat(String format) {
        apply(format);
    }

    /** Sets the format; anything but {@code text} or {@code json} is a usage error. */
    static void apply(String format) {
        String f = normalized(format);
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            apply(f, context);
        }
    }

    /** Sets the format of {@code context}'s {@code STDERR} appender, if it has one. */
    static synchronized void apply(String format, LoggerContext context) {
        String f = normalized(format);
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (!(root.getAppender(APPENDER) instanceof OutputStreamAppender<ILoggingEvent> appender)) {
            return;
        }
        @SuppressWarnings("unchecked")
        Encoder<ILoggingEvent> configured = (Encoder<ILoggingEvent>) context.getObject(CONFIGURED);
        if (configured == null) {
            configured = appender.getEncoder();
            context.putObject(CONFIGURED, configured);
        }
        Encoder<ILoggingEvent> wanted = configured;
        if (f.equals("json")) {
            JsonLineEncoder json = new JsonLineEncoder();
            json.setContext(context);
            json.start();
            wanted = json;
        }
        if (appender.getEncoder() != wanted) {
            appender.stop();
            appender.setEncoder(wanted);
            appender.start();
        }
    }

    private static String normalized(String format) {
        String f = format == null ? "text" : format.strip().toLowerCase(Locale.ROOT);
        if (!f.equals("text") && !f.equals("json")) {
            throw new picocli.CommandLine.TypeConversionException("--log-format is text or json, got " + format);
        }
        return f;
    }
}
