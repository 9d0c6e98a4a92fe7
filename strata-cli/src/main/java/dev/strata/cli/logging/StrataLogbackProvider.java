package dev.strata.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.CoreConstants;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * SLF4J's binding to Logback for the {@code strata} process, named by the {@code slf4j.provider} property
 * that {@link #select} sets. It starts Logback switched off, as {@link OffByDefaultConfigurator} does, but
 * without the two service searches SLF4J and Logback make otherwise (for providers, then for
 * configurators): each opens every jar of the class path, a good part of a small command's start-up.
 * {@link Logging#configure} then turns on what the user asked for.
 *
 * <p>Not registered in {@code META-INF/services}: embedders and tests that call {@code Main.run} keep
 * Logback's own provider (and {@link OffByDefaultConfigurator}), and SLF4J never sees two providers.
 */
public final class StrataLogbackProvider implements SLF4JServiceProvider {
    /** SLF4J's system property naming the provider to use instead of searching for one. */
    static final String PROVIDER_PROPERTY = "slf4j.provider";
    /** SLF4J reports the explicitly named provider at INFO on stderr; only warnings and errors may show. */
    static final String VERBOSITY_PROPERTY = "slf4j.internal.verbosity";

    private LoggerContext context;
    private IMarkerFactory markers;
    private LogbackMDCAdapter mdc;

    /**
     * Makes SLF4J bind to this provider; call before anything logs. A provider the user named on the
     * command line ({@code -Dslf4j.provider}) is left alone.
     */
    public static void select() {
        if (System.getProperty(PROVIDER_PROPERTY) == null) {
            System.setProperty(PROVIDER_PROPERTY, StrataLogbackProvider.class.getName());
            if (System.getProperty(VERBOSITY_PROPERTY) == null) {
                System.setProperty(VERBOSITY_PROPERTY, "WARN");
            }
        }
    }

    @Override
    public void initialize() {
        context = new LoggerContext();
        context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.OFF);
        mdc = new LogbackMDCAdapter();
        context.setMDCAdapter(mdc);
        context.start();
        markers = new BasicMarkerFactory();
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return context;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }
}
