package dev.strata.lang.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TypeTest {
    @Test
    void friendlyNames() {
        assertThat(Type.STRING.friendlyName()).isEqualTo("string");
        assertThat(Type.list(Type.STRING).friendlyName()).isEqualTo("list of string");
        assertThat(Type.map(Type.set(Type.NUMBER)).friendlyName()).isEqualTo("map of set of number");
        assertThat(Type.object(Map.of("a", Type.BOOL)).friendlyName()).isEqualTo("object");
        assertThat(Type.tuple(List.of()).friendlyName()).isEqualTo("tuple");
        assertThat(Type.list(Type.DYNAMIC).friendlyName()).isEqualTo("list of dynamic");
    }

    @Test
    void typeExpressions() {
        assertThat(Type.list(Type.STRING).typeExpr()).isEqualTo("list(string)");
        assertThat(Type.object(Map.of("b", Type.STRING, "a", Type.NUMBER)).typeExpr())
                .isEqualTo("object({a=number,b=string})");
        assertThat(Type.tuple(List.of(Type.BOOL, Type.DYNAMIC)).typeExpr()).isEqualTo("tuple([bool,any])");
        ObjectType withOptional = ObjectType.builder()
                .attr("name", Type.STRING)
                .optionalAttr("port", Type.NUMBER)
                .build();
        assertThat(withOptional.typeExpr()).isEqualTo("object({name=string,port=optional(number)})");
        assertThat(withOptional.isOptional("port")).isTrue();
        assertThat(withOptional.withoutOptional().optionalAttrs()).isEmpty();
    }

    @Test
    void consoleRenderingMatchesTerraformsTypeFunction() {
        // Taken from `type(...)` in terraform console.
        assertThat(Type.list(Type.object(Map.of("a", Type.NUMBER))).consoleTypeString())
                .isEqualTo("list(\n    object({\n        a: number,\n    }),\n)");
        assertThat(Type.emptyObject().consoleTypeString()).isEqualTo("object({})");
        assertThat(Type.map(Type.list(Type.STRING)).consoleTypeString()).isEqualTo("map(list(string))");
        assertThat(Type.DYNAMIC.consoleTypeString()).isEqualTo("dynamic");
    }

    @Test
    void equalityIsStructural() {
        assertThat(Type.list(Type.STRING)).isEqualTo(Type.list(Type.STRING)).isNotEqualTo(Type.set(Type.STRING));
        assertThat(Type.object(Map.of("a", Type.STRING))).isEqualTo(Type.object(Map.of("a", Type.STRING)));
        assertThat(Type.list(Type.DYNAMIC).hasDynamic()).isTrue();
        assertThat(Type.list(Type.STRING).hasDynamic()).isFalse();
    }

    @Test
    void optionalAttributeMustExist() {
        assertThatThrownBy(
                        () -> new ObjectType(new java.util.TreeMap<>(Map.of("a", Type.STRING)), java.util.Set.of("b")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
