package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
 * expansion, action, lifecycle, orphan, move, target, deferral and condition tables; and each plan
 * read back from its saved form.
 */
class PlanTablesTest {
    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Stream.of(
                        table("expansion", ExpansionCases.cases()),
                        table("action", ActionCases.cases()),
                        table("orphan", OrphanCases.cases()),
                        table("move", MoveCases.cases()),
                        table("target", TargetCases.cases()),
                        table("exclude", ExcludeCases.cases()),
                        table("deferral", DeferralCases.cases()),
                        table("condition", ConditionCases.cases()))
                .flatMap(s -> s);
    }

    private static Stream<Arguments> table(String name, List<PlanCase> rows) {
        return rows.stream().map(c -> Arguments.of(name, c));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void plan(String table, PlanCase c) throws PlanCodec.Damaged {
        EngineHarness h = new EngineHarness(dir);
        h.fake.importable = true;
        Plan p = h.check(c).value();
        if (p != null) {
            // Every plan survives being saved and read back (strata plan -out, then apply).
            Plan saved = PlanCodec.decode(PlanCodec.encode(p));
            assertThat(EngineHarness.changes(saved)).isEqualTo(EngineHarness.changes(p));
            assertThat(saved.changes())
                    .extracting(ResourceChange::after)
                    .isEqualTo(p.changes().stream().map(ResourceChange::after).toList());
            assertThat(EngineHarness.deferred(saved)).isEqualTo(EngineHarness.deferred(p));
            assertThat(saved.summary()).isEqualTo(p.summary());
            assertThat(saved.mode()).isEqualTo(p.mode());
        }
    }
}
