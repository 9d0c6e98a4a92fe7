package dev.strata.addr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModuleInstanceTest {
    @ParameterizedTest(name = "{0} contains {1}: {2}, as a target {3}")
    @CsvSource(delimiter = '|', textBlock = """
            module.m          | module.m                   | true  | true
            module.m          | module.m[0]                | false | true
            module.m          | module.m["k"].module.x     | false | true
            module.m[0]       | module.m[0].module.x[1]    | true  | true
            module.m[0]       | module.m[1]                | false | false
            module.m.module.x | module.m[0].module.x[2]    | false | true
            module.m          | module.mm                  | false | false
            module.m.module.x | module.m                   | false | false
            """)
    void containsAndTargetContains(String outer, String inner, boolean contains, boolean targetContains) {
        ModuleInstance o = (ModuleInstance) Addrs.parseTarget(outer).value();
        ModuleInstance i = (ModuleInstance) Addrs.parseTarget(inner).value();

        assertThat(o.contains(i)).isEqualTo(contains);
        assertThat(o.targetContains(i)).isEqualTo(targetContains);
    }
}
