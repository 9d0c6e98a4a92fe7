package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Value;
import org.junit.jupiter.api.Test;

class NetFuncsTest {
    static final FunctionTable T = ConsoleCasesTest.table();

    static String call(String name, Object... args) {
        Value[] vs = new Value[args.length];
        for (int i = 0; i < args.length; i++) {
            vs[i] = args[i] instanceof String s ? Value.string(s) : Value.number(((Number) args[i]).longValue());
        }
        CallResult r = T.lookup(name).orElseThrow().call(vs);
        return r instanceof CallResult.Failure f
                ? "error: " + f.message()
                : r.value().asString();
    }

    @Test
    void ipv6Rendering() {
        assertThat(call("cidrhost", "2001:db8::/32", 1)).isEqualTo("2001:db8::1");
        assertThat(call("cidrhost", "fd00::/64", -1)).isEqualTo("fd00::ffff:ffff:ffff:ffff");
        assertThat(call("cidrsubnet", "2001:db8::/32", 16, 0)).isEqualTo("2001:db8::/48");
        assertThat(call("cidrsubnet", "::/0", 1, 1)).isEqualTo("8000::/1");
        assertThat(call("cidrhost", "2001:0:0:1::/64", 0)).isEqualTo("2001:0:0:1::");
        assertThat(call("cidrhost", "1:0:0:2:0:0:0:3/128", 0)).isEqualTo("1:0:0:2::3");
    }

    @Test
    void ipv4Edges() {
        assertThat(call("cidrnetmask", "10.0.0.0/32")).isEqualTo("255.255.255.255");
        assertThat(call("cidrhost", "10.0.0.0/32", 0)).isEqualTo("10.0.0.0");
        assertThat(call("cidrsubnet", "10.0.0.0/8", 0, 0)).isEqualTo("10.0.0.0/8");
        assertThat(call("cidrhost", "10.0.0.1", 0)).startsWith("error: invalid CIDR expression");
        assertThat(call("cidrhost", "300.0.0.0/8", 0)).startsWith("error: invalid CIDR expression");
    }
}
