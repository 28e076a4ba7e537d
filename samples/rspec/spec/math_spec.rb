# frozen_string_literal: true

RSpec.describe 'math' do
  it 'adds' do
    expect(1 + 2).to eq 3
  end
end
