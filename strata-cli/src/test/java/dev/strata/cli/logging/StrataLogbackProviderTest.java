package dev.strata.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class StrataLogbackProviderTest {
    private String provider;
    private String verbosity;

    @BeforeEach
    void saveProperties() {
        provider = System.getProperty(StrataLogbackProvider.PROVIDER_PROPERTY);
        verbosity = System.getProperty(StrataLogbackProvider.VERBOSITY_PROPERTY);
    }

    @AfterEach
    void restoreProperties() {
        restore(StrataLogbackProvider.PROVIDER_PROPERTY, provider);
        restore(StrataLogbackProvider.VERBOSITY_PROPERTY, verbosity);
    }

    @Test
    void startsLogbackSwitchedOffWithAnMdc() {
        StrataLogbackProvider p = new StrataLogbackProvider();
        p.initialize();
        LoggerContext context = (LoggerContext) p.getLoggerFactory();
        assertThat(context.isStarted()).isTrue();
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.OFF);
        assertThat(context.getLogger("dev.strata.x").isErrorEnabled()).isFalse();
        assertThat(context.getMDCAdapter()).isSameAs(p.getMDCAdapter());
        p.getMDCAdapter().put("k", "v");
        assertThat(p.getMDCAdapter().get("k")).isEqualTo("v");
        p.getMDCAdapter().remove("k");
        assertThat(p.getMarkerFactory().getMarker("m").getName()).isEqualTo("m");
        assertThat(p.getRequestedApiVersion()).startsWith("2.");
    }

    @Test
    void selectNamesItselfUnlessTheUserNamedAProvider() {
        System.clearProperty(StrataLogbackProvider.PROVIDER_PROPERTY);
        System.clearProperty(StrataLogbackProvider.VERBOSITY_PROPERTY);
        StrataLogbackProvider.select();
        assertThat(System.getProperty(StrataLogbackProvider.PROVIDER_PROPERTY))
                .isEqualTo(StrataLogbackProvider.class.getName());
        assertThat(System.getProperty(StrataLogbackProvider.VERBOSITY_PROPERTY)).isEqualTo("WARN");

        System.setProperty(StrataLogbackProvider.PROVIDER_PROPERTY, "org.example.Mine");
        System.setProperty(StrataLogbackProvider.VERBOSITY_PROPERTY, "DEBUG");
        StrataLogbackProvider.select();
        assertThat(System.getProperty(StrataLogbackProvider.PROVIDER_PROPERTY)).isEqualTo("org.example.Mine");
        assertThat(System.getProperty(StrataLogbackProvider.VERBOSITY_PROPERTY)).isEqualTo("DEBUG");
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
