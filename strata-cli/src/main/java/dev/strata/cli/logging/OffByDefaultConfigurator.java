package dev.strata.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Found by Logback through {@code META-INF/services}, ahead of its search for {@code logback.xml} and
 * its default console setup: logging starts switched off, and stops the search so that no stray
 * configuration file changes that. {@link Logging#configure} then turns on what the user asked for.
 */
public final class OffByDefaultConfigurator extends ContextAwareBase implements Configurator {

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.OFF);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
