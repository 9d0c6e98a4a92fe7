package dev.strata.tfplugin.install;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlatformTest {
    @Test
    void javaNamesMapToGoNames() {
        assertThat(Platform.of("Linux", "amd64")).hasToString("linux_amd64");
        assertThat(Platform.of("Mac OS X", "aarch64")).hasToString("darwin_arm64");
        assertThat(Platform.of("Windows 11", "x86")).hasToString("windows_386");
        assertThat(Platform.of("FreeBSD", "x86_64")).hasToString("freebsd_amd64");
    }
}
