package io.etcdworkers.workercli;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.util.Locale;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * {@code --log-format text|json}: the log lines on stderr as text (the default) or as one JSON
 * object per line (logback's {@link JsonEncoder}: {@code timestamp}, {@code level},
 * {@code loggerName}, {@code formattedMessage}, {@code message} and {@code arguments}, {@code throwable}...), for log pipelines that index fields.
 * It swaps the encoder of logback's {@code STDERR} appender ({@link LogSetup}) as the flag is parsed, so
 * every line after it is in the format asked for; {@code text} puts the configured one back.
 */
public final class LogFormat {
    private static final String APPENDER = "STDERR";
    private static Encoder<ILoggingEvent> configured;

    @Option(names = "--log-format", paramLabel = "text|json", defaultValue = "text",
            description = "Log lines on stderr as text or as one JSON object per line. Default: ${DEFAULT-VALUE}.")
    void setFormat(String format) {
        apply(format);
    }

    /** Sets the format; anything but {@code text} or {@code json} is a usage error. */
    static synchronized void apply(String format) {
        String f = format == null ? "text" : format.strip().toLowerCase(Locale.ROOT);
        if (!f.equals("text") && !f.equals("json")) {
            throw new picocli.CommandLine.TypeConversionException("--log-format is text or json, got " + format);
        }
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (!(root.getAppender(APPENDER) instanceof OutputStreamAppender<ILoggingEvent> appender)) {
            return;
        }
        if (configured == null) {
            configured = appender.getEncoder();
        }
        Encoder<ILoggingEvent> wanted = configured;
        if (f.equals("json")) {
            JsonEncoder json = new JsonEncoder();
            json.setContext(context);
            // the line as text reads it, beside the pattern and its arguments
            json.setWithFormattedMessage(true);
            json.start();
            wanted = json;
        }
        if (appender.getEncoder() != wanted) {
            appender.stop();
            appender.setEncoder(wanted);
            appender.start();
        }
    }
}
