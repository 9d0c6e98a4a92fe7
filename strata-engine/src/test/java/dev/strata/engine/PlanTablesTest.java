package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every table of plan cases, each row planned against the state its prior configuration leaves: the
 * expansion, action, lifecycle, orphan, move, target, deferral and condition tables.
 */
class PlanTablesTest {
    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Stream.of(table("expansion", ExpansionCases.cases()), table("action", ActionCases.cases()),
                table("orphan", OrphanCases.cases()), table("move", MoveCases.cases()),
                table("target", TargetCases.cases()), table("deferral", DeferralCases.cases()),
                table("condition", ConditionCases.cases())).flatMap(s -> s);
    }

    private static Stream<Arguments> table(String name, List<PlanCase> rows) {
        return rows.stream().map(c -> Arguments.of(name, c));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void plan(String table, PlanCase c) {
        EngineHarness h = new EngineHarness(dir);
        h.fake.importable = true;
        h.check(c);
    }
}
