# Step definitions of the behave sample (behave 1.2.6, parse step matchers).
import time

from behave import given, when, then

# In-process counter: the flaky scenario fails on its first attempt and passes
# on its retry (features/environment.py retries it in the same process).
flaky_presses = {"count": 0}


@given("a calculator")
def a_calculator(context):
    context.result = 0


@when("I add {a:d} and {b:d}")
def add(context, a, b):
    context.result = a + b


@when("I subtract {b:d} from {a:d}")
def subtract(context, b, a):
    context.result = a - b


@when("I divide {a:d} by {b:d} on a broken calculator")
def divide(context, a, b):
    calculator = None
    context.result = calculator.divide(a, b)


@given("this scenario does not apply here")
def does_not_apply(context):
    context.scenario.skip("does not apply here")


@when("I press the flaky button")
def flaky(context):
    flaky_presses["count"] += 1
    assert flaky_presses["count"] > 1, "press %d fails" % flaky_presses["count"]
    context.result = 42


@when("I wait {ms:d} milliseconds")
def wait(context, ms):
    time.sleep(ms / 1000)


@when('I print "{text}"')
def print_text(context, text):
    print(text)


@then("the result is {expected:d}")
def result_is(context, expected):
    assert context.result == expected, "expected %d, got %d" % (expected, context.result)


@then('the text "{actual}" equals "{expected}"')
def text_equals(context, actual, expected):
    assert actual == expected, 'expected <%s> & "%s" to match' % (actual, expected)


@when("I add the rows")
def add_rows(context):
    for row in context.table:
        context.result += int(row["a"]) + int(row["b"])


@then("the display shows")
def display_shows(context):
    assert context.text.splitlines()[0] == str(context.result)
