RSpec.describe 'Cart' do
  it 'adds an item' do
    expect([1] + [2]).to eq([1, 2])
  end
end
