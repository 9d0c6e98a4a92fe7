package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.Addrs;
import dev.strata.engine.Action;
import dev.strata.engine.ResourceChange;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DriftReportTest {
    private static ResourceChange drift(String addr, Action action, Value before, Value after) {
        return new ResourceChange(
                Addrs.parseAbsResourceInstance(addr).value(),
                null,
                action,
                before,
                after,
                List.of(),
                null,
                AbsProviderConfig.parse("provider[\"registry.terraform.io/hashicorp/aws\"]")
                        .value(),
                0,
                null,
                null,
                null);
    }

    private static final Value BEFORE = Value.objectOf(
            "id", Value.string("i-1"),
            "tags", Value.objectOf("env", Value.string("dev"), "owner", Value.string("a")),
            "tags_all", Value.objectOf("env", Value.string("dev")),
            "ports", Value.tuple(List.of(Value.number(22), Value.number(80))),
            "password", Value.string("old").mark(Mark.SENSITIVE),
            "updated_at", Value.string("t1"));

    private static final Value AFTER = Value.objectOf(
            "id", Value.string("i-1"),
            "tags", Value.objectOf("env", Value.string("prod"), "owner", Value.string("a")),
            "tags_all", Value.objectOf("env", Value.string("prod")),
            "ports", Value.tuple(List.of(Value.number(22), Value.number(443))),
            "password", Value.string("new").mark(Mark.SENSITIVE),
            "updated_at", Value.string("t2"));

    @Test
    void reportsEachChangedAttributeLeavingOutIgnoredOnes() {
        DriftReport r = DriftReport.of(
                3,
                List.of(
                        drift("aws_instance.a", Action.UPDATE, BEFORE, AFTER),
                        drift("aws_vpc.gone", Action.DELETE, BEFORE, Value.NULL),
                        drift("aws_instance.b", Action.UPDATE, BEFORE, BEFORE)),
                Map.of("aws_instance", Set.of("updated_at", "tags_all")));
        assertThat(r.objects())
                .extracting(DriftReport.Drifted::address, DriftReport.Drifted::action)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("aws_instance.a", "update"),
                        org.assertj.core.groups.Tuple.tuple("aws_vpc.gone", "delete"));
        assertThat(r.objects().getFirst().attributes())
                .extracting(DriftReport.AttributeChange::path)
                .containsExactly("password", "ports[1]", "tags.env");
        String text = DriftView.json(r, Instant.EPOCH).toString();
        assertThat(text).doesNotContain("old").doesNotContain("new").contains("\"sensitive\":true");
        assertThat(text).contains("\"path\":\"tags.env\",\"before\":\"dev\",\"after\":\"prod\"");
    }

    @Test
    void onlyUnseenDriftIsReportedAgain() {
        Set<String> seen = new HashSet<>();
        DriftReport first = DriftReport.of(1, List.of(drift("aws_instance.a", Action.UPDATE, BEFORE, AFTER)), Map.of());
        assertThat(first.unseen(seen).objects()).hasSize(1);
        assertThat(first.unseen(seen).drifted()).as("the same drift again").isFalse();
        Value later = Value.objectOf(
                "id", Value.string("i-1"),
                "tags", Value.objectOf("env", Value.string("qa"), "owner", Value.string("a")),
                "tags_all", Value.objectOf("env", Value.string("qa")),
                "ports", Value.tuple(List.of(Value.number(22), Value.number(443))),
                "password", Value.string("new").mark(Mark.SENSITIVE),
                "updated_at", Value.string("t2"));
        DriftReport second =
                DriftReport.of(1, List.of(drift("aws_instance.a", Action.UPDATE, BEFORE, later)), Map.of());
        assertThat(second.unseen(seen).objects())
                .as("a new change of the same object")
                .hasSize(1);
    }

    @Test
    void ignoreCoversNestedPaths() {
        assertThat(DriftReport.covers("tags", "tags.env")).isTrue();
        assertThat(DriftReport.covers("ports", "ports[1]")).isTrue();
        assertThat(DriftReport.covers("tags", "tags_all.env")).isFalse();
    }

    @Test
    void nullAndEmptyCollectionsAreTheSame() {
        Value stored = Value.objectOf(
                "id", Value.string("p"),
                "tags", Value.nullValue(Type.map(Type.STRING)),
                "aliases", Value.nullValue(Type.list(Type.STRING)),
                "description", Value.nullValue(Type.STRING),
                "rules", Value.tuple(List.of(Value.objectOf("ports", Value.EMPTY_TUPLE))));
        Value read = Value.objectOf(
                "id", Value.string("p"),
                "tags", Value.map(Type.STRING, Map.of()),
                "aliases", Value.list(Type.STRING, List.of()),
                "description", Value.string(""),
                "rules", Value.tuple(List.of(Value.objectOf("ports", Value.nullValue(Type.list(Type.NUMBER))))));
        DriftReport r = DriftReport.of(1, List.of(drift("aws_ssm_parameter.p", Action.UPDATE, stored, read)), Map.of());
        assertThat(r.objects().getFirst().attributes())
                .as("null -> {} and null -> [] are no drift, null -> \"\" is")
                .extracting(DriftReport.AttributeChange::path)
                .containsExactly("description");

        Value tagged = Value.objectOf("tags", Value.map(Type.STRING, Map.of("a", Value.string("b"))));
        Value untagged = Value.objectOf("tags", Value.map(Type.STRING, Map.of()));
        assertThat(DriftReport.of(1, List.of(drift("aws_ssm_parameter.p", Action.UPDATE, tagged, untagged)), Map.of())
                        .drifted())
                .as("tags removed outside are still drift")
                .isTrue();
    }
}
