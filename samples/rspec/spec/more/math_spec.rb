# frozen_string_literal: true

# same describe and example name as spec/math_spec.rb
RSpec.describe 'math' do
  it 'adds' do
    expect(2 + 2).to eq 4
  end
end
